import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { detectPidNamespace } from '../../../src/engine/engine-command.js';
import { detectInit } from '../../../src/engine/namespace-init.js';
import { createHost } from '../../../src/host/index.js';
import { enginePids, engineZombies } from '../../helpers/engine-pids.js';

const COMMON = fileURLToPath(new URL('../../../src/leaves/common', import.meta.url));
const namespace = detectPidNamespace() !== null;
const PATH = process.env.PATH ?? '/usr/bin:/bin';

const RUNS = 200;
// Each run leaves two orphans to its namespace's init: a `setsid` daemon and a plain background child.
const ORPHANS = '(setsid sleep 300 &) ; (sleep 301 &) ; echo x';
// The bound: every orphan above ends (the run's reap or the namespace sweep kills it), and is reaped.
const ZOMBIE_BOUND = 10;

// Issue 31: the engine's namespace reaps what it inherits. Before the init, every orphan killed
// at a run's end stayed a zombie of the engine until it exited (40 after 20 such runs).
describe.runIf(namespace)('the engine’s namespace reaps the orphans its runs leave', () => {
  it(`settles ${RUNS} runs that each leave two orphans with their own output, and leaves fewer than ${ZOMBIE_BOUND} zombies`, async () => {
    const host = await createHost({ isolation: 'process', packageDirs: [COMMON], limits: { graceMs: 300 } });
    const wrong: string[] = [];
    try {
      const [engine] = enginePids().engine;
      for (let i = 0; i < RUNS; i += 1) {
        const out = await host.exec({ runtime: 'sh', body: `${ORPHANS} ${i}`, env: { PATH } });
        if (out.result.status !== 200 || out.channels.stdout?.text !== `x ${i}\n`)
          wrong.push(`run ${i}: ${out.result.status} ${JSON.stringify(out.channels.stdout?.text)}`);
      }
      expect(wrong).toEqual([]);
      // One engine served them all: no restart hid the zombies.
      expect(enginePids().engine).toEqual([engine]);
      // The last runs' orphans die at their ends (the sweep waits 50 ms); the init reaps each at once.
      const zombies = await settled(engineZombies);
      expect(zombies).toBeLessThan(ZOMBIE_BOUND);
      // Measured by the init itself, where it counts (Perl): at least the two orphans of every run.
      const { zombiesReaped } = host.isolation();
      if (detectInit() === 'perl') expect(zombiesReaped).toBeGreaterThanOrEqual(2 * RUNS);
      else expect(zombiesReaped).toBeUndefined();
    } finally {
      await host.close();
    }
    expect(enginePids().all).toEqual([]);
  }, 240_000);
});

/** Polls `count` until it reads under the bound or 5 s have passed; resolves with its last reading. */
async function settled(count: () => number): Promise<number> {
  const deadline = Date.now() + 5000;
  for (;;) {
    const now = count();
    if (now < ZOMBIE_BOUND || Date.now() >= deadline) return now;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
