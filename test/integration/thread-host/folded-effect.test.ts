import { afterEach, describe, expect, it } from 'vitest';
import type { WorkerTask } from '../../../src/contracts/protocol.js';
import { executeRun, type RunEnd } from '../../../src/thread-host/dispatch/execute-run.js';
import { RunStream } from '../../../src/thread-host/ports/run-stream.js';
import { HostMemoryWatch } from '../../../src/thread-host/threads/memory-watchdog.js';
import { SharedTicker } from '../../../src/runtime/shared-ticker.js';
import { TagWorkers } from '../../../src/thread-host/threads/tag-workers.js';
import type { WorkerHandle } from '../../../src/thread-host/threads/worker-handle.js';
import { resolveHostOptions } from '../../../src/model/host-options.js';
import { bootHost } from '../../../src/host/index.js';
import { fixtureDiscovery } from '../../helpers/fixture-discovery.js';

const discovery = fixtureDiscovery(['exec-bad-effect', 'exec-misbehaves']);
const options = resolveHostOptions({ limits: { graceMs: 200 } });

/** A tag's threads, with every task posted to one of them recorded by kind. */
function openTag(tag: string) {
  const entry = discovery.registry.get(tag)!;
  const workers = new TagWorkers(
    {
      boot: { tag, glyph: '', entryUrl: entry.entryUrl, limits: options.limits },
      env: { PLURNK_EXECS_ERROR_DETAIL_LIMIT: '512' },
    },
    'never',
  );
  const posted: WorkerTask[] = [];
  const record = (handle: WorkerHandle) => {
    const post = handle.post.bind(handle);
    handle.post = (task) => (posted.push(task), post(task));
    return handle;
  };
  return { workers, posted, acquire: async () => record(await workers.acquire('run')) };
}

/** One run in `handle`'s thread with its effect() folded into the run's task, as the thread tier runs an EXEC without an effect. */
function runFolded(handle: WorkerHandle, target: string | null, signal?: AbortSignal): Promise<RunEnd> {
  const closing = new AbortController();
  const { limits } = options;
  return executeRun({
    handle,
    request: { runtime: 'tag', body: 'x', cwd: null, target, hasEntry: false },
    stream: new RunStream({ out: { mimetype: 'text/plain' }, err: { mimetype: 'text/plain' } }),
    sinks: undefined,
    signal,
    timeoutMs: undefined,
    detailLimit: 512,
    closing: closing.signal,
    limits,
    loadTimeoutMs: options.loadTimeoutMs,
    memory: new HostMemoryWatch(limits.rssMb, limits.heartbeatMs, 2 * limits.heartbeatMs),
    heartbeats: new SharedTicker(limits.heartbeatMs, true),
    foldEffect: { timeoutMs: 1000 },
  });
}

// Where the caller passes no effect, effect() runs in the run's own task: one round trip to
// the thread per EXEC instead of two, with effect()'s own bound and verdicts kept.
describe('effect() folded into the run task', () => {
  let workers: TagWorkers | undefined;
  afterEach(async () => {
    await workers?.close();
  });

  it('calls effect() and run() in one task and takes the Effect the thread marked', async () => {
    const tag = openTag('bad-effect');
    workers = tag.workers;
    const handle = await tag.acquire();
    const end = await runFolded(handle, null);
    expect(end.effect).toEqual({ refused: false, effect: 'pure' });
    expect(end.result.status).toBe(200);
    expect(tag.posted.map((task) => task.kind)).toEqual(['run']);
    expect(tag.posted[0]).toMatchObject({ kind: 'run', effect: true });
    await tag.workers.release(handle, { ranRun: true, poisoned: end.poisoned });
  });

  it.each([
    ['throw', 'executor-threw', 'effect() threw: TypeError: cannot classify', false],
    ['bogus', 'executor-invalid-result', `effect() returned "maybe", not 'pure', 'read' or 'host'`, false],
    ['spin', 'executor-threw', 'effect() did not return within 1000ms', true],
  ])('refuses before run() when effect() misbehaves (%s), in that one task', async (target, code, detail, poisoned) => {
    const tag = openTag('bad-effect');
    workers = tag.workers;
    const handle = await tag.acquire();
    const end = await runFolded(handle, target);
    expect(end.effect).toMatchObject({ refused: true, failure: { code, detail, poisoned } });
    expect(end.result.problem).toMatchObject({ type: `https://problems.plurnk.xyz/scheme/exec/${code}`, detail });
    expect(end.poisoned).toBe(poisoned);
    expect(tag.posted.map((task) => task.kind)).toEqual(['run']);
    await tag.workers.release(handle, { ranRun: false, poisoned: end.poisoned });
  });

  it('refuses, as effect()’s fault, an EXEC aborted while effect() still spins past the grace', async () => {
    const tag = openTag('bad-effect');
    workers = tag.workers;
    const handle = await tag.acquire();
    // Aborted well inside effect()'s own bound (1000 ms): the run's grace (200 ms) ends the thread first.
    const end = await runFolded(handle, 'spin', AbortSignal.timeout(50));
    const detail = 'effect() had not returned when the run was aborted, nor within graceMs after';
    expect(end.effect).toMatchObject({ refused: true, failure: { code: 'executor-threw', detail, poisoned: true } });
    expect(end.result.problem).toMatchObject({ detail });
    await tag.workers.release(handle, { ranRun: false, poisoned: end.poisoned });
  });

  it('keeps the Effect a thread marked when the thread dies in run() afterwards', async () => {
    const host = await bootHost(discovery);
    try {
      const out = await host.exec({ runtime: 'misbehave', body: 'exit' });
      expect(out.result.problem?.detail).toBe(
        'the worker thread died during run(): the worker thread exited with code 3',
      );
      expect(out.effect).toBe('host');
    } finally {
      await host.close();
    }
  });
});
