import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { workerEntryPath } from '../../../src/runtime/package-root.js';

/** A leaf that imports the package root and does nothing else. */
const LEAF = new URL('../../../fixtures/bench/exec-noop/index.js', import.meta.url).href;

/**
 * Runs in a fresh worker thread, as piscina's own worker does: require()s the file the host hands
 * piscina, awaits what it exports, and reports what require() returned and what the export held.
 */
const THREAD = `
const { parentPort, workerData } = require('node:worker_threads');
const loaded = require(workerData.file);
const kind = Object.prototype.toString.call(loaded);
Promise.resolve(typeof loaded?.then === 'function' ? loaded : loaded.default).then(
  (handler) => parentPort.postMessage({ kind, handler: typeof handler }),
  (error) => parentPort.postMessage({ kind, error: String(error) }),
);
`;

async function requireInThread(file: string): Promise<{ kind: string; handler?: string; error?: string }> {
  const worker = new Worker(THREAD, {
    eval: true,
    workerData: { file, tag: 'noop', glyph: 'x', entryUrl: LEAF, marker: 'thread-start-test' },
  });
  try {
    return await new Promise((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
      worker.once('exit', (code) => reject(new Error(`the thread exited (${code}) before it reported`)));
    });
  } finally {
    await worker.terminate();
  }
}

describe('the file piscina loads in every executor thread', () => {
  // Node ≥ 20.19 loads an ES module under require() through a facade, and aborts the whole
  // process when the thread is terminated while the facade is built (a Node assertion, seen
  // killing a CI run on Node 26 and reproduced here on Node 20 too). The host terminates
  // threads at any moment, so the file piscina require()s must be CommonJS.
  it('is CommonJS: require() returns its exports, not an ES module namespace, and they hold the task handler', async () => {
    const result = await requireInThread(workerEntryPath());
    expect(result.kind).not.toBe('[object Module]');
    expect(result).toEqual({ kind: '[object Promise]', handler: 'function' });
    expect(workerEntryPath()).toMatch(/\.cjs$/);
  });
});
