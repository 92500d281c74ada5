import { readdirSync, readFileSync } from 'node:fs';

/** Parent pid of `pid` from /proc, or undefined when it is gone. */
function parentOf(pid: number): number | undefined {
  try {
    return Number(/^PPid:\s*(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);
  } catch {
    return undefined;
  }
}

function commandOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
  } catch {
    return '';
  }
}

/**
 * The engine processes this test process started, as seen from outside their namespace:
 * `node … engine-entry.js` (the engine), a child of this process or of its `unshare` parent,
 * and that `unshare`. A process the engine forked that has not yet exec'd its program has the
 * engine's command line too; it is neither, since its parent is the engine.
 */
export function enginePids(): { engine: number[]; all: number[] } {
  const engine: number[] = [];
  const all: number[] = [];
  for (const entry of readdirSync('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid) || pid <= 1) continue;
    const command = commandOf(pid);
    if (!command.includes('engine-entry.js')) continue;
    const parent = parentOf(pid);
    if (command.startsWith('unshare')) {
      if (parent === process.pid) all.push(pid);
    } else if (parent === process.pid || (parent !== undefined && isOurUnshare(parent))) {
      engine.push(pid);
      all.push(pid);
    }
  }
  return { engine, all };
}

/** True for the `unshare` this process started an engine with. */
function isOurUnshare(pid: number): boolean {
  return commandOf(pid).startsWith('unshare') && parentOf(pid) === process.pid;
}
