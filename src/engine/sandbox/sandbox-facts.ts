import { readFileSync, readlinkSync } from 'node:fs';
import * as v from 'valibot';
import { readMountTable } from './mount-table.js';

// What the engine sees of its sandbox from inside, measured at boot before any leaf loads and
// sent in its hello frame: whether every capability set is empty, which of its mounts it could
// write, its network namespace and its cgroups. The service judges these against what it set up
// (engine-sandbox.ts): a layer is reported only when it was asked for and is seen from inside.

/** At most this many writable mounts or cgroup lines cross: a full list of writable mounts is judged open. */
export const MAX_LISTED = 64;
const Path = v.pipe(v.string(), v.maxLength(4096));

/** Schema of the facts in the engine's hello frame: bounded, as everything the engine sends. */
export const SandboxFactsSchema = v.strictObject({
  /** Every capability set (bounding, permitted, effective, inheritable, ambient) empty, and no_new_privs set. */
  noPrivileges: v.boolean(),
  /** The mount points it may write (the topmost mount of each), at most {@link MAX_LISTED}. */
  writableMounts: v.pipe(v.array(Path), v.maxLength(MAX_LISTED)),
  /** Its network namespace (`net:[<inode>]`), or null where it cannot be read. */
  netNamespace: v.nullable(v.pipe(v.string(), v.maxLength(64))),
  /** The path of each of its cgroups (one per v1 hierarchy, one for v2), from `/proc/self/cgroup`. */
  cgroups: v.pipe(v.array(Path), v.maxLength(MAX_LISTED)),
});
/** What the engine sees of its sandbox. */
export type SandboxFacts = v.InferOutput<typeof SandboxFactsSchema>;

/** Run in the engine before any leaf loads: the facts above, from its own `/proc`. */
export function measureSandbox(): SandboxFacts {
  return {
    noPrivileges: readNoPrivileges(),
    writableMounts: readWritableMounts(),
    netNamespace: readLink('/proc/self/ns/net'),
    cgroups: readCgroups(),
  };
}

/** This process's network namespace, or null where it cannot be read: the service's, to compare. */
export function netNamespaceId(): string | null {
  return readLink('/proc/self/ns/net');
}

function readNoPrivileges(): boolean {
  const status = readText('/proc/self/status');
  const field = (name: string) => new RegExp(`^${name}:\\s*(\\S+)$`, 'm').exec(status)?.[1];
  const sets = ['CapInh', 'CapPrm', 'CapEff', 'CapBnd', 'CapAmb'].map(field);
  return sets.every((set) => set !== undefined && /^0+$/.test(set)) && field('NoNewPrivs') === '1';
}

/** Mount points whose topmost mount is read-write (a lower one stacked under it cannot be reached by a path). */
function readWritableMounts(): string[] {
  const top = new Map<string, boolean>();
  for (const entry of readMountTable()) top.set(entry.at, !entry.options.includes('ro'));
  return [...top]
    .filter(([, rw]) => rw)
    .map(([at]) => at)
    .slice(0, MAX_LISTED);
}

function readCgroups(): string[] {
  const lines = readText('/proc/self/cgroup').split('\n');
  return lines
    .map((line) => /^\d+:[^:]*:(\/.*)$/.exec(line)?.[1])
    .filter((path): path is string => path !== undefined)
    .slice(0, MAX_LISTED);
}

function readText(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}

function readLink(path: string): string | null {
  try {
    return readlinkSync(path);
  } catch {
    return null;
  }
}
