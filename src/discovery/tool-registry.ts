import * as v from 'valibot';
import { PlurnkExecsError } from '../contracts/errors.js';
import type { RuntimeToolRegistry } from '../contracts/invocation.js';
import { InvocationRulesSchema, normalizeInvocation } from './invocation-rules.js';
import { formatIssueLines, reportIssues } from './issue-report.js';

const OneLine = v.pipe(v.string(), v.nonEmpty('must not be empty'), v.regex(/^[^\r\n]*$/, 'must be one line'));

/**
 * One exact tool (§executor-tool-registry): a one-line literal target, a one-line summary, a
 * complete invocation that passes every declaration rule and declares its target bucket as
 * required and `literal`, and an example (if any) whose target is the tool's own.
 */
export const ToolSchema: v.GenericSchema<RuntimeToolRegistry['tools'][number]> = v.pipe(
  v.strictObject({
    target: OneLine,
    summary: OneLine,
    invocation: InvocationRulesSchema,
    details: v.optional(v.string()),
  }),
  v.forward(
    v.check((tool) => tool.invocation.target !== undefined, 'is required: a tool declares its target bucket'),
    forwardPath('invocation', 'target'),
  ),
  v.forward(
    v.check(
      (tool) => tool.invocation.target === undefined || tool.invocation.target.required === true,
      'must be true: a tool always takes its exact target',
    ),
    forwardPath('invocation', 'target', 'required'),
  ),
  v.forward(
    v.check(
      (tool) => tool.invocation.target === undefined || tool.invocation.target.kind === 'literal',
      'must be "literal": a tool target is an exact name',
    ),
    forwardPath('invocation', 'target', 'kind'),
  ),
  v.forward(
    v.check(
      (tool) => tool.invocation.example?.target === undefined || tool.invocation.example.target === tool.target,
      "must equal the tool's own target",
    ),
    forwardPath('invocation', 'example', 'target'),
  ),
);

// valibot types forward() paths only through required keys; these go through optional ones,
// which forward() handles at run time (the issue lands on the field even when it is absent).
// The invocation is an opaque schema here (its declared interface), so every path below it is typed this way.
function forwardPath(...keys: string[]): ['invocation'] {
  return keys as ['invocation'];
}

/** A whole `toolRegistry()` snapshot: a closed object with unique tool targets. */
export const ToolRegistrySchema: v.GenericSchema<RuntimeToolRegistry> = v.pipe(
  v.strictObject({ tools: v.array(ToolSchema) }),
  v.rawCheck(({ dataset, addIssue }) => {
    if (!dataset.typed) return;
    const { tools } = dataset.value;
    const firstIndex = new Map<string, number>();
    tools.forEach((tool, index) => {
      const earlier = firstIndex.get(tool.target);
      if (earlier === undefined) {
        firstIndex.set(tool.target, index);
        return;
      }
      addIssue({
        message: `repeats the target of tools[${earlier}]; each tool target must be unique`,
        path: [
          { type: 'object', origin: 'value', input: dataset.value, key: 'tools', value: tools },
          { type: 'array', origin: 'value', input: tools, key: index, value: tool },
          { type: 'object', origin: 'value', input: tool, key: 'target', value: tool.target },
        ],
      });
    });
  }),
);

/** Who returned a tool registry, for error messages. */
export interface ToolRegistryOwner {
  runtime: string;
  packageName?: string;
}

/**
 * Validates a `toolRegistry()` snapshot and returns it normalized and frozen. Any violation
 * throws `PlurnkExecsError('invalid-tool-registry')` naming the runtime (and package), every
 * offending field, what was received, and how to fix it.
 */
export function validateToolRegistry(snapshot: unknown, owner: ToolRegistryOwner): RuntimeToolRegistry {
  const result = v.safeParse(ToolRegistrySchema, snapshot, { abortEarly: false });
  if (!result.success) {
    const lines = reportIssues(ToolRegistrySchema, result.issues, {
      name: 'the registry',
      hint: 'return { "tools": [ { "target", "summary", "invocation" } ] }',
    });
    const from =
      owner.packageName === undefined
        ? `runtime "${owner.runtime}"`
        : `runtime "${owner.runtime}" (package "${owner.packageName}")`;
    const count = lines.length === 1 ? '' : ` (${lines.length} problems)`;
    throw new PlurnkExecsError(
      'invalid-tool-registry',
      `Invalid tool registry from ${from}${count}:\n${formatIssueLines(lines)}`,
      {
        cause: new v.ValiError(result.issues),
      },
    );
  }
  return normalizeToolRegistry(result.output);
}

/** A valid snapshot as the host carries it: normalized invocations, no undefined fields, frozen. */
export function normalizeToolRegistry(registry: RuntimeToolRegistry): RuntimeToolRegistry {
  const tools = registry.tools.map((tool) =>
    Object.freeze({
      target: tool.target,
      summary: tool.summary,
      invocation: normalizeInvocation(tool.invocation),
      ...(tool.details === undefined ? {} : { details: tool.details }),
    }),
  );
  return Object.freeze({ tools: Object.freeze(tools) });
}
