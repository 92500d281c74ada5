import { readFileSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';

const DIST = new URL('../../../dist/', import.meta.url).href;
/** The thread entry the host starts, compiled: executor threads run `dist/`, and so does this one. */
const ENTRY = new URL('worker/worker-entry.js', DIST).href;
/** A leaf that imports the package root and does nothing else (what every leaf imports). */
const LEAF = new URL('../../../fixtures/bench/exec-noop/index.js', import.meta.url).href;
/** A module loaded last: once its URL is recorded, every earlier load has been. */
const LAST = 'data:text/javascript,export{}';

// Records every module URL the thread loads. Node ≥ 22.15 runs hooks in the thread itself
// (module.registerHooks); Node 20 has only module.register, whose hooks run in a thread of
// their own and send each URL back over a port.
const OFF_THREAD_HOOKS = `
let port;
export function initialize(data) { port = data.port; }
export async function load(url, context, next) { port.postMessage(url); return next(url, context); }
`;

/**
 * Runs in a fresh worker thread: installs the recording hook, then does what piscina does in
 * an executor thread (imports the thread entry, which installs the guards and starts loading
 * the leaf), waits until the leaf has loaded, and posts every module URL it saw loaded.
 */
const THREAD = `
import module from 'node:module';
import { MessageChannel, parentPort } from 'node:worker_threads';
const loaded = [];
let sawLast;
const lastSeen = new Promise((resolve) => (sawLast = resolve));
const record = (url) => { loaded.push(url); if (url === ${JSON.stringify(LAST)}) sawLast(); };
if (typeof module.registerHooks === 'function') {
  module.registerHooks({ load: (url, context, next) => (record(url), next(url, context)) });
} else {
  const { port1, port2 } = new MessageChannel();
  port1.on('message', record);
  module.register('data:text/javascript,' + encodeURIComponent(${JSON.stringify(OFF_THREAD_HOOKS)}), {
    data: { port: port2 },
    transferList: [port2],
  });
}
await (await import(${JSON.stringify(ENTRY)})).default;
// The handler imports the leaf at once; importing the same URL settles when that load has.
await import(${JSON.stringify(LEAF)});
await import(${JSON.stringify(LAST)});
await lastSeen;
parentPort.postMessage(loaded);
`;

/**
 * The module URLs an executor thread for the no-op leaf loads before it can answer a task,
 * started as the host starts it on the bundle of its start path (`bundled`), or without it.
 */
async function loadedAtStart(bundled: boolean): Promise<string[]> {
  const worker = new Worker(new URL(`data:text/javascript,${encodeURIComponent(THREAD)}`), {
    // As the host boots it: with the thread's run marker (the host makes it).
    workerData: { tag: 'noop', glyph: 'x', entryUrl: LEAF, marker: 'start-path-test' },
    ...(bundled ? { execArgv: [...process.execArgv, '--conditions=plurnk-execs-thread'] } : {}),
  });
  try {
    return await new Promise<string[]>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
      worker.once('exit', (code) => reject(new Error(`the thread exited (${code}) before it reported`)));
    });
  } finally {
    await worker.terminate();
  }
}

/** What only a host needs: discover()'s scanner and a runtimes hook's runner (discovery loads them). */
const HOST_ONLY_DISCOVERY = [
  'discover',
  'collect-declarations',
  'scan-node-modules',
  'read-manifest',
  'details',
  'env-floors',
  'legacy-declaration',
  'runtimes-hook',
  'hook-thread',
  'resolve-export',
].map((name) => new URL(`discovery/${name}.js`, DIST).href);

describe("an executor thread's start path (worker entry, task handler, a leaf importing the package root)", () => {
  it('without the bundle, loads neither the host half, nor the discovery scanner, nor what its leaf does not need', async () => {
    const loaded = await loadedAtStart(false);
    const own = loaded.filter((url) => url.startsWith(DIST)).map((url) => url.slice(DIST.length));
    // The recording saw the whole path: the handler, the package root the leaf imports, the leaf.
    expect(own).toEqual(expect.arrayContaining(['worker/task-handler.js', 'index.js']));
    expect(loaded).toContain(LEAF);

    const hostHalf = own.filter((path) => /^(host|engine|check|cli|bench)\//.test(path));
    expect(hostHalf).toEqual([]);
    expect(loaded.filter((url) => HOST_ONLY_DISCOVERY.includes(url))).toEqual([]);
    // The resolve hook that links a local leaf to this copy: this leaf already resolves to it.
    expect(own).not.toContain('worker/framework-resolve-hook.js');
    // A thread is handed its run marker; generating one is the host's (node:crypto alone costs a new thread ~5 ms on Node 26).
    expect(loaded).not.toContain('node:crypto');
  });

  it('on the bundle (as the host starts it) is the entry, the bundle and its shared chunk, and the leaf', async () => {
    const loaded = await loadedAtStart(true);
    const own = loaded.filter((url) => url.startsWith(DIST)).map((url) => url.slice(DIST.length));
    expect(loaded).toContain(LEAF);
    // One copy of the framework: the leaf's import resolved to the bundle, so the package root's modules never load.
    expect(own[0]).toBe('worker/worker-entry.js');
    expect(own.slice(1).sort()).toEqual(['worker/thread-root.js', ...chunksImportedBy('worker/thread-root.js')].sort());
    // Code only discover() or a linked local leaf needs stays in chunks of its own, unloaded.
    expect(own.filter((path) => /thread-chunk-(discover|framework-resolve-hook)-/.test(path))).toEqual([]);
    expect(loaded).not.toContain('node:crypto');
  });
});

/** The chunks `file` (under dist/) imports statically. */
function chunksImportedBy(file: string): string[] {
  const source = readFileSync(new URL(file, DIST), 'utf8');
  const dir = file.slice(0, file.lastIndexOf('/') + 1);
  return [...source.matchAll(/^import [^;]*?from "\.\/(thread-chunk-[^"]+)";$/gm)].map((match) => dir + match[1]!);
}
