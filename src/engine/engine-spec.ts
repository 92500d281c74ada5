import type { Discovery } from '../contracts/registry.js';
import type { CrashBreaker } from '../model/crash-breaker.js';
import type { ResolvedHostOptions } from '../model/host-options.js';
import { engineCommand } from './engine-command.js';
import { buildEngineDiscovery, buildEngineEnv } from './engine-env.js';
import type { EngineGroup } from './engine-groups.js';
import { engineFrameBytes, engineWaitMs } from './engine-limits.js';
import { EngineProcess } from './engine-process.js';
import type { EngineHostOptions } from './engine-protocol.js';
import type { SupervisorSpec } from './engine-supervisor.js';
import { pidNamespaceId } from './namespace-init.js';

// How one engine of a host is started and kept: the command (its sandbox from the host's
// permissions and limits), its environment and boot frame (its own packages' part of the
// discovery alone), and the bounds its supervisor holds it to. engine-lane.ts hands in what it
// does with the engine's frames and its death.

/** What the lanes of one host share: its discovery, options, detail limit, closing signal and crash breaker. */
export interface LaneContext {
  readonly discovery: Discovery;
  readonly resolved: ResolvedHostOptions;
  readonly detailLimit: number;
  readonly closing: AbortSignal;
  readonly breaker: CrashBreaker;
}

/** What the lane does with its engine: the supervisor's callbacks that are the lane's business. */
export type LaneHooks = Pick<SupervisorSpec, 'onMessage' | 'onBooted' | 'onDeath' | 'runsInFlight'>;

/** The supervisor spec of the engine that runs `group`'s packages. */
export function laneSupervisorSpec(
  group: EngineGroup,
  label: string,
  context: LaneContext,
  hooks: LaneHooks,
): SupervisorSpec {
  const { resolved, detailLimit, discovery } = context;
  const { fsWrite, addons, network } = resolved.permissions;
  const sandbox = { fsWrite, network, memoryMb: resolved.limits.engineMemoryMb, pids: resolved.limits.enginePids };
  const tags = new Set(group.tags);
  return {
    ...hooks,
    label,
    tags,
    packages: group.packages,
    spawn: (onMessage, onDeath) =>
      new EngineProcess(
        engineCommand(fsWrite, addons, sandbox),
        buildEngineEnv(process.env, detailLimit),
        engineFrameBytes(resolved.limits),
        onMessage,
        onDeath,
      ),
    boot: {
      t: 'boot',
      discovery: buildEngineDiscovery(discovery, detailLimit, group.packages),
      options: engineOptions(resolved, tags),
      heartbeatMs: resolved.limits.heartbeatMs,
      servicePidNamespace: pidNamespaceId(),
    },
    onProbe: (tag, availability) => {
      try {
        resolved.onProbe?.(tag, availability);
      } catch {
        // A throwing onProbe is ignored, as in the thread tier.
      }
    },
    bootWaitMs: engineWaitMs(resolved),
    // The engine's main thread keeps the thread tier's pace: a heartbeat per period, and the same silence bound.
    heartbeatMs: resolved.limits.heartbeatMs,
    unresponsiveMs: resolved.limits.unresponsiveMs,
  };
}

/**
 * The resolved options an engine's thread tier takes: all but the function, the engine's own
 * permissions and the groups; `defaultRuntime` only for the engine that serves it.
 */
function engineOptions(resolved: ResolvedHostOptions, tags: ReadonlySet<string>): EngineHostOptions {
  const { onProbe: _p, permissions: _m, engines: _e, defaultRuntime, ...rest } = resolved;
  return structuredClone({
    ...rest,
    defaultRuntime: defaultRuntime !== undefined && tags.has(defaultRuntime) ? defaultRuntime : undefined,
  });
}
