import { readdirSync, readFileSync } from 'node:fs';
import { basename } from 'node:path';

// The processes this benchmark process started, read from /proc: a process-tier host's engines
// (`unshare`, the namespace's init, `node … engine-entry.js`) and whatever their leaves left. A
// host's RSS is the service's plus its engines': the engine holds every executor thread. Until
// the host reports its engines' memory itself, the benchmarks walk this process's descendants.

/** One descendant of this process as /proc shows it. */
export interface Descendant {
  readonly pid: number;
  readonly ppid: number;
  /** Exited and not reaped (`Z`): a zombie holds no memory. */
  readonly zombie: boolean;
  /** Resident set size in bytes (stat's `rss`, in pages of 4 KiB on x86-64 Linux). */
  readonly rssBytes: number;
  /**
   * An engine process: Node running `engine-entry.js`, its parent not one (a fork of the engine
   * before its exec has the engine's command line). `unshare` and the namespace's init name the
   * script in their own command lines too, but neither runs Node.
   */
  readonly engine: boolean;
}

const PAGE_BYTES = 4096;

/** Every living or zombie descendant of process `root` (default: this one); empty where /proc cannot be read. */
export function descendants(root = process.pid): Descendant[] {
  const rows = new Map<number, { ppid: number; zombie: boolean; rssBytes: number }>();
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return [];
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    const text = read(`/proc/${entry}/stat`);
    if (text === undefined) continue;
    // After the parenthesised command: state, ppid, …; rss is the 24th field of the line, the 22nd after it.
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    rows.set(Number(entry), {
      ppid: Number(fields[1]),
      zombie: fields[0] === 'Z',
      rssBytes: Number(fields[21]) * PAGE_BYTES,
    });
  }
  const children = new Map<number, number[]>();
  for (const [pid, row] of rows) children.set(row.ppid, [...(children.get(row.ppid) ?? []), pid]);
  const found: Descendant[] = [];
  const engines = new Set<number>();
  // A parent leaves the queue before its children are pushed, so an engine is known before its forks.
  const queue = [...(children.get(root) ?? [])];
  while (queue.length > 0) {
    const pid = queue.pop()!;
    const row = rows.get(pid)!;
    const engine = !row.zombie && !engines.has(row.ppid) && runsEngine(read(`/proc/${pid}/cmdline`) ?? '');
    if (engine) engines.add(pid);
    found.push({ pid, ppid: row.ppid, zombie: row.zombie, rssBytes: row.rssBytes, engine });
    queue.push(...(children.get(pid) ?? []));
  }
  return found;
}

/** The RSS of this process's engine processes, and of all its descendants (bytes). */
export function descendantsRss(): { engines: number; all: number } {
  let engines = 0;
  let all = 0;
  for (const process of descendants()) {
    all += process.rssBytes;
    if (process.engine) engines += process.rssBytes;
  }
  return { engines, all };
}

/** A command line (NUL-separated) of Node running the engine's entry script. */
function runsEngine(cmdline: string): boolean {
  const [program = '', ...args] = cmdline.split('\0');
  return (
    (program === process.execPath || basename(program) === 'node') &&
    args.some((arg) => arg.endsWith('engine-entry.js'))
  );
}

function read(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}
