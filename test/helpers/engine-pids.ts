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
 * `node … engine-entry.js` (the engine) and its `unshare` parent, found by walking each
 * process's parents up to this one.
 */
export function enginePids(): { engine: number[]; all: number[] } {
  const engine: number[] = [];
  const all: number[] = [];
  for (const entry of readdirSync('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid) || pid <= 1) continue;
    const command = commandOf(pid);
    if (!command.includes('engine-entry.js')) continue;
    let ancestor = parentOf(pid);
    for (let hops = 0; ancestor !== undefined && ancestor > 1 && hops < 4; hops += 1) {
      if (ancestor === process.pid) {
        all.push(pid);
        if (!command.startsWith('unshare')) engine.push(pid);
        break;
      }
      ancestor = parentOf(ancestor);
    }
  }
  return { engine, all };
}
