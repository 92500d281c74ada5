import { readFileSync } from 'node:fs';

// The mount table as `/proc/self/mountinfo` lists it (proc(5)): the service reads it to find the
// cgroup hierarchies (cgroup-layout.ts), the engine to see which of its mounts it may write
// (sandbox-facts.ts).

/** One mount: where it is, its own options, its filesystem and that filesystem's options. */
export interface MountEntry {
  /** Where it is mounted, with mountinfo's octal escapes (`\040` for a space) undone. */
  readonly at: string;
  /** The path inside its filesystem that is mounted there (`/` for the whole filesystem). */
  readonly root: string;
  /** This mount's own options (`rw`/`ro`, `nosuid`, `relatime`…). */
  readonly options: readonly string[];
  readonly fsType: string;
  /** The filesystem's options: a cgroup v1 hierarchy names its controllers here (`rw,memory`). */
  readonly superOptions: readonly string[];
}

/** Every mount of `text` (mountinfo's format), in its order; a line it cannot read is left out. */
export function parseMountInfo(text: string): MountEntry[] {
  const entries: MountEntry[] = [];
  for (const line of text.split('\n')) {
    const fields = line.split(' ');
    const separator = fields.indexOf('-', 6);
    if (fields.length < 10 || separator < 0) continue;
    entries.push({
      at: unescape(fields[4]!),
      root: unescape(fields[3]!),
      options: fields[5]!.split(','),
      fsType: fields[separator + 1] ?? '',
      superOptions: (fields[separator + 3] ?? '').split(','),
    });
  }
  return entries;
}

/** This process's mount table; empty where it cannot be read (not Linux). */
export function readMountTable(path = '/proc/self/mountinfo'): MountEntry[] {
  try {
    return parseMountInfo(readFileSync(path, 'utf8'));
  } catch {
    return [];
  }
}

/** Whether `path` is `dir` or lies under it. */
export function isUnder(path: string, dir: string): boolean {
  return dir === '/' || path === dir || path.startsWith(`${dir}/`);
}

/** mountinfo's escapes: a space, tab, newline or backslash in a path is written as three octal digits. */
function unescape(field: string): string {
  return field.replace(/\\([0-7]{3})/g, (_, octal: string) => String.fromCharCode(parseInt(octal, 8)));
}
