import { spawn } from 'node:child_process';
import type { RuntimeAvailability } from '@plurnk/plurnk-execs';
import { reportProcessGroup, signalGroup } from '@plurnk/plurnk-execs';
import { findOnPath } from './find-on-path.js';
import type { Recipe } from './recipes.js';

/** How long a version line may be in a probe detail. */
const DETAIL_MAX = 120;
/** How much version output is kept while waiting for the process to end. */
const OUTPUT_MAX = 4096;

/**
 * Availability of one interpreter (§executor-probe): the first of the recipe's binaries on
 * `pathVariable`, found without a shell. Missing ⇒ unavailable with `<binary> not on PATH`
 * and how to install it. Found ⇒ its version line as the detail when a cheap version command
 * exists; a version command that fails means the binary is there but broken (unavailable).
 */
export async function probeInterpreter(recipe: Recipe, pathVariable: string | undefined, signal?: AbortSignal): Promise<RuntimeAvailability> {
  const found = findOnPath(recipe.binaries, pathVariable);
  if (found === undefined) {
    return { available: false, detail: `${recipe.binaries.join(' or ')} not on PATH (install: ${recipe.install})` };
  }
  if (recipe.version === undefined) return { available: true, detail: found.path };
  if (signal?.aborted) return { available: false, detail: `probe of ${found.path} was cancelled before it ran` };
  return readVersion(found.path, recipe.version, signal);
}

/** Runs the version command in its own process group; an abort kills the group. */
function readVersion(path: string, version: NonNullable<Recipe['version']>, signal?: AbortSignal): Promise<RuntimeAvailability> {
  const command = [path, ...version.args].join(' ');
  return new Promise((resolve) => {
    const child = spawn(path, [...version.args], {
      detached: true,
      stdio: [version.stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    });
    if (child.pid !== undefined) reportProcessGroup(child.pid);
    let output = '';
    const collect = (chunk: Buffer) => {
      if (output.length < OUTPUT_MAX) output += chunk.toString('utf8');
    };
    child.stdout?.on('data', collect);
    child.stderr?.on('data', collect);
    if (version.stdin !== undefined && child.stdin) {
      child.stdin.on('error', () => {});
      child.stdin.end(version.stdin);
    }
    const onAbort = () => {
      if (child.pid !== undefined) signalGroup(child.pid, 'SIGKILL');
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    let settled = false;
    const settle = (verdict: RuntimeAvailability) => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener('abort', onAbort);
      resolve(verdict);
    };
    child.on('error', (error) => settle({ available: false, detail: `${path} could not start: ${error.message}` }));
    child.on('close', (code, killedBy) => {
      if (signal?.aborted) return settle({ available: false, detail: `probe of ${path} was cancelled` });
      const line = output.split(/\r?\n/).find((l) => l.trim() !== '')?.trim().slice(0, DETAIL_MAX) ?? '';
      if (code === 0) return settle({ available: true, detail: line || path });
      const end = killedBy ? `was killed by ${killedBy}` : `exited ${code}`;
      settle({ available: false, detail: `${command} ${end}${line ? `: ${line}` : ''}` });
    });
  });
}
