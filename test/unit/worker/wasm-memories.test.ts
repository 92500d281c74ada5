import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';

const MIB = 1024 * 1024;
/** The compiled census: executor threads run `dist/`, and so does this thread. */
const CENSUS = new URL('../../../dist/worker/wasm-memories.js', import.meta.url).href;

/**
 * Runs in a fresh worker thread: starts the census, then makes four 8 MiB WebAssembly
 * memories — a `new WebAssembly.Memory`, a shared one, one a module exports and grows with its
 * own code, and one made through the prototype's `constructor` — and reports how far `external` plus the census moved, and whether leaves
 * still see the real classes.
 */
const THREAD = `
import { parentPort } from 'node:worker_threads';
import { watchWasmMemories, wasmBytesOutsideExternal } from ${JSON.stringify(CENSUS)};
watchWasmMemories();
const reported = () => process.memoryUsage().external + wasmBytesOutsideExternal();
// (module (memory (export "memory") 1 16448) (func (export "grow") (param i32) (result i32) local.get 0 memory.grow))
const bytes = Uint8Array.from([0,97,115,109,1,0,0,0,1,6,1,96,1,127,1,127,3,2,1,0,5,6,1,1,1,192,128,1,
  7,17,2,6,109,101,109,111,114,121,2,0,4,103,114,111,119,0,0,10,8,1,6,0,32,0,64,0,11]);
const before = reported();
const plain = new WebAssembly.Memory({ initial: 128 });
const shared = new WebAssembly.Memory({ initial: 128, maximum: 128, shared: true });
const { instance } = await WebAssembly.instantiate(bytes);
instance.exports.grow(127);
const roundabout = new (Object.getPrototypeOf(plain).constructor)({ initial: 128 });
const after = reported();
parentPort.postMessage({
  grewMiB: (after - before) / ${MIB},
  classes: [
    plain instanceof WebAssembly.Memory,
    shared.buffer instanceof SharedArrayBuffer,
    instance instanceof WebAssembly.Instance,
    instance.exports.memory instanceof WebAssembly.Memory,
    instance.exports.memory.buffer.byteLength === 8 * ${MIB},
    roundabout.constructor === WebAssembly.Memory,
  ],
});
`;

describe('the WebAssembly memory census of an executor thread', () => {
  it('counts every memory once in what the thread reports, whether or not V8 puts it in external', async () => {
    const worker = new Worker(new URL(`data:text/javascript,${encodeURIComponent(THREAD)}`));
    try {
      const report = await new Promise<{ grewMiB: number; classes: boolean[] }>((resolve, reject) => {
        worker.once('message', resolve);
        worker.once('error', reject);
      });
      expect(report.classes).toEqual([true, true, true, true, true, true]);
      // 4 × 8 MiB (the census's own probes are made after `external` is read). Counting a
      // memory twice (V8 and the census) would pass 40; missing one would stay under 25.
      expect(report.grewMiB).toBeGreaterThanOrEqual(31.5);
      expect(report.grewMiB).toBeLessThan(34);
    } finally {
      await worker.terminate();
    }
  });
});
