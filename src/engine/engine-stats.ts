import { realpathSync } from 'node:fs';
import type { EngineStats } from '../model/observe/host-stats.js';
import type { EngineContainment } from '../model/observe/observe-events.js';
import { readProcFile } from '../runtime/proc-table.js';
import type { EngineProcess } from './engine-process.js';

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
  containment(): EngineContainment;
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
    containment: containmentOf(facts),
  };
}

/** The two facts of the containment an engine confirmed, whatever else its supervisor reports with them. */
export function containmentOf(facts: Pick<EngineFacts, 'containment'>): EngineContainment {
  const { pidNamespace, permissionModel } = facts.containment();
  return { pidNamespace, permissionModel };
}

/** How many levels below the process it started the service looks for the engine (unshare, the namespace's init). */
const WRAPPERS = 3;
/** This Node, which the engine runs. */
const NODE = realpathOr(process.execPath);

/**
 * The pid of the engine itself: the process the service started, or under a PID namespace the
 * first process below it (`unshare`, then the namespace's init, where there is one) that runs
 * this Node — looked for level by level, so no process the engine started comes first.
 */
export function enginePid(engine: EngineProcess): number | undefined {
  const top = engine.pid;
  if (top === undefined || !engine.command.pidNamespace) return top;
  let level = [top];
  for (let depth = 0; depth <= WRAPPERS && level.length > 0; depth++) {
    const found = level.find((pid) => realpathOr(`/proc/${pid}/exe`) === NODE);
    if (found !== undefined) return found;
    level = level.flatMap(childrenOf);
  }
  return top;
}

/** The children of `pid` (`/proc/<pid>/task/<pid>/children`), or none when that cannot be read. */
function childrenOf(pid: number): number[] {
  const text = readProcFile(`/proc/${pid}/task/${pid}/children`) ?? '';
  return text
    .split(/\s+/)
    .filter((field) => field !== '')
    .map(Number);
}

function realpathOr(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}

/** `VmRSS` of `pid` in bytes, or null where `/proc` cannot tell. */
function residentBytes(pid: number): number | null {
  const kib = /^VmRSS:\s+(\d+) kB/m.exec(readProcFile(`/proc/${pid}/status`) ?? '')?.[1];
  return kib === undefined ? null : Number(kib) * 1024;
}
