import type { EngineStats } from '../model/observe/host-stats.js';
import { readProcFile } from '../runtime/proc-table.js';
import { childrenOf, type EngineProcess } from './engine-process.js';

/** What the supervisor knows of the engine it keeps (engine-supervisor.ts). */
export interface EngineFacts {
  /** The booted engine, while it lives. */
  readonly engine: EngineProcess | undefined;
  /** Its pid as the service sees it, read when it booted. */
  readonly pid: number | undefined;
  /** When (epoch ms) it booted. */
  readonly bootedAt: number | undefined;
  readonly restarts: number;
  /** Why the last booted engine died (not one the host's close ended). */
  readonly lastCrash: string | undefined;
  readonly closed: boolean;
  containment(): { pidNamespace: boolean; permissionModel: boolean };
}

/**
 * One engine as `host.stats()` reports it. Its memory is read by the service from `/proc`
 * (the engine's own word on it is a leaf's to forge), and so is its pid: under `unshare` the
 * engine is the child of the process the service started.
 */
export function describeEngine(facts: EngineFacts, packages: readonly string[]): EngineStats {
  const running = facts.engine?.alive === true && facts.bootedAt !== undefined;
  const pid = running ? (facts.pid ?? null) : null;
  return {
    pid,
    packages: [...packages],
    state: facts.closed ? 'closed' : running ? 'running' : 'restarting',
    startedAt: running ? new Date(facts.bootedAt!).toISOString() : null,
    uptimeMs: running ? Date.now() - facts.bootedAt! : null,
    restarts: facts.restarts,
    lastCrash: facts.lastCrash ?? null,
    rssBytes: pid === null ? null : residentBytes(pid),
    containment: facts.containment(),
  };
}

/** The pid of the engine itself: under `unshare` (a PID namespace), the child of the process the service started. */
export function enginePid(engine: EngineProcess): number | undefined {
  const pid = engine.pid;
  if (pid === undefined || !engine.command.pidNamespace) return pid;
  return childrenOf(pid)[0] ?? pid;
}

/** `VmRSS` of `pid` in bytes, or null where `/proc` cannot tell. */
function residentBytes(pid: number): number | null {
  const kib = /^VmRSS:\s+(\d+) kB/m.exec(readProcFile(`/proc/${pid}/status`) ?? '')?.[1];
  return kib === undefined ? null : Number(kib) * 1024;
}
