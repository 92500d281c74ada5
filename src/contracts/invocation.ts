import * as v from 'valibot';

const OneLine = v.pipe(v.string(), v.nonEmpty('must not be empty'), v.regex(/^[^\r\n]*$/, 'must be one line'));

/**
 * How a consumer realizes an authored target (§executor-invocation). `script` (the later 1.x
 * kind: "script; never a command or a directory") is a program file the executor runs: a
 * local or `file://` path, never a directory (docs/host.md).
 */
export const TargetKindSchema = v.picklist(['literal', 'path', 'resource', 'script']);
/** How a consumer realizes an authored target. */
export type TargetKind = v.InferOutput<typeof TargetKindSchema>;
/** 1.x's name for {@link TargetKind}. */
export type RuntimeTargetKind = TargetKind;

/** The body bucket of an invocation. */
export const BodyDeclSchema = v.strictObject({
  role: OneLine,
  required: v.optional(v.boolean()),
});

/** The target bucket of an invocation; omitted when the runtime accepts no target. */
export const TargetDeclSchema = v.strictObject({
  role: OneLine,
  required: v.optional(v.boolean()),
  kind: TargetKindSchema,
  directory: v.optional(v.literal('cwd')),
});

/** The executable witness of an invocation: a one-line body, a target, or both. */
export const InvocationExampleSchema = v.strictObject({
  body: v.optional(v.pipe(v.string(), v.regex(/^[^\r\n]*$/, 'must be one line'))),
  target: v.optional(v.pipe(v.string(), v.regex(/^[^\r\n]*$/, 'must be one line'))),
});

/**
 * The structural shape of one runtime's invocation contract (§executor-invocation). The
 * cross-field rules (buckets, exclusivity, example satisfying its own buckets) are checked
 * by discovery's declaration validator on top of this shape.
 */
export const RuntimeInvocationSchema = v.strictObject({
  body: BodyDeclSchema,
  target: v.optional(TargetDeclSchema),
  exclusive: v.optional(v.boolean()),
  example: v.optional(InvocationExampleSchema),
  signature: v.optional(OneLine),
});
/** One runtime's invocation contract. */
export type RuntimeInvocation = v.InferOutput<typeof RuntimeInvocationSchema>;

/** A runtime declaration as a package publishes it (§executor-runtime-declaration). */
export const RuntimeDeclSchema = v.strictObject({
  name: v.string(),
  glyph: v.optional(v.string()),
  summary: OneLine,
  invocation: RuntimeInvocationSchema,
  details: v.optional(v.string()),
});
/** A runtime declaration as a package publishes it. */
export type RuntimeDecl = v.InferOutput<typeof RuntimeDeclSchema>;

/** One exact tool of a finite family (§executor-tool-registry). */
export const RuntimeToolSchema = v.strictObject({
  target: v.string(),
  summary: OneLine,
  invocation: RuntimeInvocationSchema,
  details: v.optional(v.string()),
});

/** The immutable tool snapshot a family runtime returns from `toolRegistry()`. */
export const RuntimeToolRegistrySchema = v.strictObject({
  tools: v.array(RuntimeToolSchema),
});
/** The immutable tool snapshot a family runtime returns from `toolRegistry()`. */
export interface RuntimeToolRegistry {
  readonly tools: readonly {
    readonly target: string;
    readonly summary: string;
    readonly invocation: RuntimeInvocation;
    readonly details?: string;
  }[];
}
