import * as v from 'valibot';
import { JsonObjectSchema } from './json.js';

// The valibot shapes behind contracts/invocation.ts. They live apart so that the shipped
// declarations of invocation.ts name only its interfaces: code that extends or pipes a
// shape (discovery's rules) imports it from here.

const OneLine = v.pipe(v.string(), v.nonEmpty('must not be empty'), v.regex(/^[^\r\n]*$/, 'must be one line'));

/** How a consumer realizes an authored target. */
export const targetKindShape = v.picklist(['literal', 'path', 'resource', 'script']);

/** The body bucket of an invocation. */
export const bodyDeclShape = v.strictObject({
  role: OneLine,
  required: v.optional(v.boolean()),
});

/** The target bucket of an invocation. */
export const targetDeclShape = v.strictObject({
  role: OneLine,
  required: v.optional(v.boolean()),
  kind: targetKindShape,
  directory: v.optional(v.literal('cwd')),
});

/** The executable witness of an invocation. */
export const invocationExampleShape = v.strictObject({
  body: v.optional(v.pipe(v.string(), v.regex(/^[^\r\n]*$/, 'must be one line'))),
  target: v.optional(v.pipe(v.string(), v.regex(/^[^\r\n]*$/, 'must be one line'))),
});

/** The structural shape of one runtime's invocation contract. */
export const runtimeInvocationShape = v.strictObject({
  body: bodyDeclShape,
  target: v.optional(targetDeclShape),
  exclusive: v.optional(v.boolean()),
  example: v.optional(invocationExampleShape),
  signature: v.optional(OneLine),
  inputSchema: v.optional(JsonObjectSchema),
});

/** Where a runtime's generated documents live: a non-empty absolute pathname such as `/tools`. */
const resourcesPathShape = v.pipe(
  v.string(),
  v.startsWith('/', 'must be an absolute pathname such as /tools'),
  v.regex(/^[^\r\n]*$/, 'must be one line'),
);

/** The fields of a runtime declaration, for schemas that extend it (discovery's declaration). */
export const runtimeDeclEntries = {
  name: v.string(),
  glyph: v.optional(v.string()),
  summary: OneLine,
  invocation: runtimeInvocationShape,
  details: v.optional(v.string()),
  resourcesPath: v.optional(resourcesPathShape),
};

/** A runtime declaration as a package publishes it. */
export const runtimeDeclShape = v.strictObject(runtimeDeclEntries);

/** One exact tool of a finite family. */
export const runtimeToolShape = v.strictObject({
  target: v.string(),
  summary: OneLine,
  invocation: runtimeInvocationShape,
  details: v.optional(v.string()),
});

/** The tool snapshot a family runtime returns from `toolRegistry()`. */
export const runtimeToolRegistryShape = v.strictObject({ tools: v.array(runtimeToolShape) });
