import { fileURLToPath } from 'node:url';
import type { LeafEntry } from './bench-leaves.js';

// The in-process baseline of the probe scenario, run as a fresh Node process so every leaf
// import is cold, as it is in a fresh worker thread. The library itself is loaded before the
// clock starts: an in-process host has it loaded already. Started only by scenarios/probe.ts.

/** What the parent asks: each tag alone in turn ('each'), or every tag concurrently ('all'). */
export interface InProcessProbeRequest {
  readonly mode: 'each' | 'all';
  readonly leaves: readonly LeafEntry[];
  /** Warm probes per tag after the cold one ('each' only), fewer when they exceed `warmBudgetMs`. */
  readonly warm: number;
  readonly warmBudgetMs: number;
}

/** Cold ms per tag (and warm ms samples), or the whole concurrent boot in ms. */
export interface InProcessProbeAnswer {
  readonly cold: Record<string, number>;
  readonly warm: Record<string, number[]>;
  readonly bootMs: number;
}

interface Probing {
  probe(signal?: AbortSignal): Promise<unknown>;
}

if (process.argv[1] !== fileURLToPath(import.meta.url)) {
  throw new Error('probe-in-process.js runs only as the child process the probe scenario starts');
}
{
  const request = JSON.parse(process.argv[2]!) as InProcessProbeRequest;
  await import('../index.js');
  process.stdout.write(JSON.stringify(await probeInProcess(request)));
}

/** Imports, constructs and probes leaves in this process, timing each step from a cold import. */
async function probeInProcess(request: InProcessProbeRequest): Promise<InProcessProbeAnswer> {
  const cold: Record<string, number> = {};
  const warm: Record<string, number[]> = {};
  const start = performance.now();
  if (request.mode === 'all') {
    await Promise.all(request.leaves.map((leaf) => loadAndProbe(leaf)));
    return { cold, warm, bootMs: performance.now() - start };
  }
  for (const leaf of request.leaves) {
    const begun = performance.now();
    const executor = await loadAndProbe(leaf);
    cold[leaf.tag] = performance.now() - begun;
    warm[leaf.tag] = [];
    const budget = performance.now() + request.warmBudgetMs;
    for (let i = 0; i < request.warm && (i < 3 || performance.now() < budget); i++) {
      const again = performance.now();
      await probeOnce(executor);
      warm[leaf.tag]!.push(performance.now() - again);
    }
  }
  return { cold, warm, bootMs: performance.now() - start };
}

async function loadAndProbe(leaf: LeafEntry): Promise<Probing> {
  const module = (await import(leaf.entryUrl)) as {
    default: new (options: { runtime: string; glyph: string }) => Probing;
  };
  const executor = new module.default({ runtime: leaf.tag, glyph: leaf.glyph });
  await probeOnce(executor);
  return executor;
}

/** A probe under a signal aborted once it settles, as the host does. */
async function probeOnce(executor: Probing): Promise<void> {
  const controller = new AbortController();
  try {
    await executor.probe(controller.signal);
  } finally {
    controller.abort();
  }
}
