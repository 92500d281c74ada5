import { ErrorDetail } from '../../contracts/error-detail.js';
import { PlurnkExecsError } from '../../contracts/errors.js';
import { explainMissingTag } from '../../discovery/known-leaves.js';
import { checkInvocationBuckets } from '../../contracts/invocation-buckets.js';
import type { RuntimeInvocation, RuntimeToolRegistry } from '../../contracts/invocation.js';
import type { Discovery, RegistryEntry } from '../../contracts/registry.js';
import type { ExecResult } from '../../contracts/result.js';
import type { Availability } from '../../model/host-types.js';
import { hostFailure } from '../../model/host-problems.js';
import { isDirectory, realizeTarget } from './realize-target.js';

/** An EXEC refused before `effect()`, or the registry entry and realized target it runs with. */
export type Admission =
  { ok: false; result: ExecResult } | { ok: true; entry: RegistryEntry; target: string | null; cwd: string | null };

/**
 * Dispatch checks in the consumer's order: the tag is registered (else 501
 * `runtime-disabled` when policy removed it, `runtime-not-registered` otherwise), available
 * (else 501 `runtime-unavailable` with the probe's detail), the body and target fit the
 * invocation buckets (400), the `cwd` is a directory (400 `cwd-not-found`), and the target
 * can be realized (400 `target-not-supported`).
 * For a tool family (`toolRegistry()`), the target selects one exact tool and that tool's
 * invocation replaces the runtime's for the bucket checks; there is no generic fallback.
 */
export function admit(
  request: { runtime: string; body: string; target: string | null; cwd: string | null },
  discovery: Discovery,
  availability: (tag: string) => Availability | undefined,
  availableRuntimes: readonly string[],
  detailLimit: number,
  toolRegistry: (tag: string) => RuntimeToolRegistry | undefined = () => undefined,
): Admission {
  const bound = (text: string) => ErrorDetail.preview(text, detailLimit);
  const tag = request.runtime;
  const entry = discovery.registry.get(tag);
  if (entry === undefined) {
    if (discovery.disabled.includes(tag)) {
      return refuse(hostFailure('runtime-disabled', bound(`runtime ${tag} is installed but disabled by policy`)));
    }
    return refuse(
      hostFailure(
        'runtime-not-registered',
        bound(`no runtime ${JSON.stringify(tag)} is registered; available: ${availableRuntimes.join(', ') || 'none'}`),
        {
          available: [...availableRuntimes],
        },
      ),
    );
  }
  const verdict = availability(tag);
  if (!verdict?.available) {
    return refuse(
      hostFailure(
        'runtime-unavailable',
        bound(`runtime ${tag} is unavailable: ${verdict?.detail ?? 'it was not probed'}`),
      ),
    );
  }
  let invocation = entry.invocation;
  const tools = toolRegistry(tag);
  if (tools !== undefined) {
    const selected = selectTool(tag, tools, request.target);
    if (!selected.ok) return refuse(hostFailure(selected.code, bound(selected.detail)));
    invocation = selected.invocation;
  }
  const violation = checkInvocationBuckets(tag, invocation, request.body, request.target);
  if (violation) return refuse(hostFailure(violation.code, bound(violation.detail)));
  if (request.cwd !== null && !isDirectory(request.cwd)) {
    const detail = `the EXEC's cwd ${JSON.stringify(request.cwd)} does not exist or is not a directory; pass an existing directory, or null for the host process's`;
    return refuse(hostFailure('cwd-not-found', bound(detail)));
  }
  const realized = realizeTarget(tag, invocation, request.target, request.cwd);
  if (!realized.ok) return refuse(hostFailure('target-not-supported', bound(realized.detail)));
  return { ok: true, entry, target: realized.target, cwd: realized.cwd };
}

/**
 * Why `host.effect(tag)` has no thread to ask: the tag is unavailable (`verdict`, its probe's),
 * disabled by policy, or not registered — `runtime-unavailable`, naming it. Both tiers throw it.
 */
export function unusableTag(tag: string, discovery: Discovery, verdict: Availability | undefined): PlurnkExecsError {
  const why = verdict
    ? `is unavailable: ${verdict.detail ?? 'no detail'}`
    : discovery.disabled.includes(tag)
      ? 'is disabled by policy'
      : `is not registered: ${explainMissingTag(tag, discovery.searched ?? [])}`;
  return new PlurnkExecsError('runtime-unavailable', `runtime ${JSON.stringify(tag)} ${why}`);
}

/** The exact tool an EXEC's target names, or why there is none (§executor-tool-registry). */
function selectTool(
  tag: string,
  registry: RuntimeToolRegistry,
  target: string | null,
):
  | { ok: true; invocation: RuntimeInvocation }
  | { ok: false; code: 'target-required' | 'target-not-supported'; detail: string } {
  const names = registry.tools.map((tool) => tool.target);
  if (names.length === 0)
    return { ok: false, code: 'target-not-supported', detail: `${tag} exposes no tools, so it admits no EXEC` };
  const tool = registry.tools.find((candidate) => candidate.target === target);
  if (tool !== undefined) return { ok: true, invocation: tool.invocation };
  if (target === null || target === '')
    return {
      ok: false,
      code: 'target-required',
      detail: `${tag} is a tool family: name one of its tools as the target (${names.join(', ')})`,
    };
  return {
    ok: false,
    code: 'target-not-supported',
    detail: `${tag} has no tool ${JSON.stringify(target)}; its tools: ${names.join(', ')}`,
  };
}

function refuse(result: ExecResult): Admission {
  return { ok: false, result };
}
