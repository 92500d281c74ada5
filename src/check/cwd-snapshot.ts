/**
 * What a run did to its working directory: a snapshot of every entry under it (kind, size,
 * inode, modification and change times) before the run and after, and the difference. Bounded:
 * a directory with more entries than {@link MAX_ENTRIES} (20,000) is not snapshotted (null), so pointing
 * `--cwd` at a huge tree costs a bounded walk, not a copy of it.
 */
import { lstatSync, readdirSync, type Stats } from 'node:fs';
import { join } from 'node:path';
import type { FileChanges } from './check-report.js';

/** Entries past which a directory is not snapshotted. */
const MAX_ENTRIES = 20_000;
/** Paths listed in a report; the counts cover the rest. */
const LISTED = 12;

/** Every entry under a directory, by path relative to it, with what identifies its content; null when too large. */
export type CwdSnapshot = ReadonlyMap<string, string> | null;

/** Walks `dir` (without following links) and records every entry; null when it holds more than `maxEntries`. */
export function snapshotCwd(dir: string, maxEntries = MAX_ENTRIES): CwdSnapshot {
  const entries = new Map<string, string>();
  const pending = [''];
  while (pending.length > 0) {
    const relative = pending.pop()!;
    let names: string[];
    try {
      names = readdirSync(join(dir, relative));
    } catch {
      continue; // Unreadable, or gone since it was listed: nothing to compare.
    }
    for (const name of names) {
      const path = relative === '' ? name : `${relative}/${name}`;
      const stats = statOf(join(dir, path));
      if (stats === undefined) continue;
      if (entries.size >= maxEntries) return null;
      const directory = stats.isDirectory();
      entries.set(directory ? `${path}/` : path, identity(stats, directory));
      if (directory) pending.push(path);
    }
  }
  return entries;
}

/** What changed from `before` to `after`; null when either could not be taken. */
export function diffSnapshots(before: CwdSnapshot, after: CwdSnapshot): FileChanges | null {
  if (before === null || after === null) return null;
  const created: string[] = [];
  const changed: string[] = [];
  const removed: string[] = [];
  for (const [path, id] of after) {
    const was = before.get(path);
    if (was === undefined) created.push(path);
    // A directory whose entries changed has new times: only its entries are reported.
    else if (was !== id && !path.endsWith('/')) changed.push(path);
  }
  for (const path of before.keys()) if (!after.has(path)) removed.push(path);
  const paths = [
    ...created.sort().map((path) => `+${path}`),
    ...changed.sort().map((path) => `~${path}`),
    ...removed.sort().map((path) => `-${path}`),
  ].slice(0, LISTED);
  return { created: created.length, changed: changed.length, removed: removed.length, paths };
}

function statOf(path: string): Stats | undefined {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
}

/** What tells one version of an entry from another: kind, inode, size, and the times a write or a chmod moves. */
function identity(stats: Stats, directory: boolean): string {
  const kind = directory ? 'd' : stats.isSymbolicLink() ? 'l' : stats.isFile() ? 'f' : 'o';
  return `${kind}:${stats.ino}:${stats.size}:${stats.mtimeMs}:${stats.ctimeMs}`;
}
