import type { RuntimeInvocation as Invocation, RuntimeToolRegistry } from '../contracts/invocation.js';
import { InvocationRulesSchema, normalizeInvocation } from './invocation-rules.js';
import { parseOneX } from './one-x-assert.js';
import { ToolRegistrySchema, normalizeToolRegistry } from './tool-registry.js';

/** One runtime's invocation contract (§executor-invocation); see contracts/invocation.ts. */
export type RuntimeInvocation = Invocation;

/**
 * 1.x's invocation validator, as a 1.x service imports it (`RuntimeInvocation.assert`,
 * `RuntimeInvocation.assertToolRegistry`). Both run discovery's own rules — the schemas
 * `validateRuntimeDecl` and `validateToolRegistry` use — and throw a `PlurnkExecsError`
 * (`invalid-declaration`, `invalid-tool-registry`) whose message is worded as 1.x words it:
 * `runtime declaration invalid: <packageName> '<runtime>' <detail>`. docs/compat.md lists
 * where the rules differ from 1.x's.
 */
export const RuntimeInvocation = class RuntimeInvocation {
  /**
   * Validates one invocation and returns it normalized as 1.x returns it: explicit `required`
   * booleans, `exclusive` only when true, and the one witness (`example`, `signature` or
   * `inputSchema`).
   */
  static assert(value: unknown, packageName: string, runtime: string): Invocation {
    const who = { owner: packageName, runtime };
    return toOneXInvocation(
      normalizeInvocation(parseOneX(InvocationRulesSchema, value, 'invocation', who, 'invalid-declaration')),
    );
  }

  /**
   * Validates a `toolRegistry()` snapshot (§executor-tool-registry) and returns `{ tools }`:
   * only `tools`; each tool only `target, summary, invocation, details`; a one-line target;
   * an invocation that passes {@link RuntimeInvocation.assert} and declares a required
   * literal target; an example target equal to the tool's; no duplicate targets.
   */
  static assertToolRegistry(value: unknown, packageName: string, runtime: string): RuntimeToolRegistry {
    const who = { owner: packageName, runtime };
    const registry = normalizeToolRegistry(
      parseOneX(ToolRegistrySchema, value, 'tool registry', who, 'invalid-tool-registry'),
    );
    return Object.freeze({
      tools: Object.freeze(
        registry.tools.map((tool) => Object.freeze({ ...tool, invocation: toOneXInvocation(tool.invocation) })),
      ),
    });
  }
};

Object.freeze(RuntimeInvocation);

/** A normalized invocation in 1.x's returned shape: `exclusive` appears only when it is true. */
export function toOneXInvocation(invocation: Invocation): Invocation {
  if (invocation.exclusive === true) return invocation;
  const { exclusive: _exclusive, ...rest } = invocation;
  return Object.freeze(rest);
}
