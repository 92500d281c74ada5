import { afterEach, describe, expect, it } from 'vitest';
import type { TaskReply, WorkerTask } from '../../../src/contracts/protocol.js';
import { TagWorkers } from '../../../src/thread-host/threads/tag-workers.js';
import { WorkerHandle } from '../../../src/thread-host/threads/worker-handle.js';
import { SpareBudget } from '../../../src/thread-host/threads/spare-demand.js';
import { StartGate, UNBOUNDED_STARTS, type StartAdmission } from '../../../src/thread-host/threads/start-gate.js';
import { resolveHostOptions } from '../../../src/model/host-options.js';
import type { RecyclePolicy } from '../../../src/model/host-types.js';
import { fixtureDiscovery } from '../../helpers/fixture-discovery.js';

const entry = fixtureDiscovery(['exec-keeps-state']).registry.get('state')!;
const spec = {
  boot: {
    tag: 'state',
    glyph: '',
    entryUrl: entry.entryUrl,
    limits: resolveHostOptions({ limits: { graceMs: 200 } }).limits,
  },
  env: { PLURNK_EXECS_ERROR_DETAIL_LIMIT: '512' },
};

// The thread bookkeeping of one tag, with real threads: which thread a task gets, the warm
// spare, and retirement.
describe('TagWorkers', () => {
  let workers: TagWorkers | undefined;
  const open = (recycle: RecyclePolicy, admission?: StartAdmission) =>
    (workers = new TagWorkers(spec, recycle, admission));
  /** Admission with unbounded starts, and spares held to `max` and decaying every `idleMs`. */
  const spares = (max: number, idleMs = 60_000): StartAdmission => ({
    ...UNBOUNDED_STARTS,
    gate: new StartGate({ threadStarts: Infinity, threadStartsPerTag: Infinity }),
    spares: { budget: new SpareBudget(max), idleMs },
  });
  /** Runs `n` runs at once in threads of `tag` and gives their threads back; returns their thread ids. */
  const burst = async (tag: TagWorkers, n: number) => {
    const handles = await Promise.all(Array.from({ length: n }, () => tag.acquire('run')));
    await Promise.all(handles.map((handle) => tag.release(handle, { ranRun: true, poisoned: false })));
    return handles.map((handle) => handle.threadId);
  };
  /** Waits until `tag` has exactly `n` idle threads, all done warming up. */
  const warmSpares = async (tag: TagWorkers, n: number) => {
    await expect.poll(() => tag.snapshot().available.length, { timeout: 20_000 }).toBe(n);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(tag.snapshot().available).toHaveLength(n);
  };
  afterEach(async () => {
    await workers?.close();
  });

  it("keeps a warm spare under 'each-run', hands it to the next run, and retires a thread that ran", async () => {
    const tag = open('each-run');
    await warmSpares(tag, 0);
    await tag.release(await tag.acquire('run'), { ranRun: true, poisoned: false });
    await warmSpares(tag, 1);
    const first = await tag.acquire('run');
    // A run on a warm spare: its replacement starts when the run gives the thread back, never beside it.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(tag.counts()).toMatchObject({ busy: 1, starting: 0, idle: 0, spares: 0 });
    await tag.release(first, { ranRun: true, poisoned: false });
    expect(first.deathReason).toBe('the host retired the worker thread');
    const spare = tag.snapshot().spare;
    expect(spare).toBeDefined();
    expect(spare).not.toBe(first.threadId);
    const second = await tag.acquire('run');
    expect(second.threadId).toBe(spare);
    await tag.release(second, { ranRun: true, poisoned: false });
    expect(tag.snapshot().spare).not.toBe(spare);
  });

  it('retires a burst’s threads and starts their replacements only once the last run of the burst gave its thread back', async () => {
    const tag = open('each-run', spares(4));
    await burst(tag, 2);
    await warmSpares(tag, 2);
    const first = await tag.acquire('run');
    const second = await tag.acquire('run');
    const released = tag.release(first, { ranRun: true, poisoned: false });
    // Several turns later, with the second run still in flight: the first thread lives on, no spare started.
    for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
    expect(first.alive).toBe(true);
    expect(first.deathReason).toBeUndefined();
    expect(tag.snapshot().spare).toBeUndefined();
    await Promise.all([released, tag.release(second, { ranRun: true, poisoned: false })]);
    expect(first.deathReason).toBe('the host retired the worker thread');
    expect(second.deathReason).toBe('the host retired the worker thread');
    expect(tag.snapshot().spare).toBeDefined();
  });

  it('keeps as many warm spares as runs were in flight at once, so the next burst starts no thread', async () => {
    const tag = open('each-run', spares(16));
    const first = await burst(tag, 4);
    await warmSpares(tag, 4);
    const ready = tag.snapshot().available;
    expect(ready.some((id) => first.includes(id))).toBe(false);
    // Every run of the next burst takes a spare that was already warm: no thread is started for it.
    expect((await burst(tag, 4)).sort()).toEqual([...ready].sort());
  });

  it("holds no more spares than the host's spare budget", async () => {
    const tag = open('each-run', spares(2));
    await burst(tag, 4);
    await warmSpares(tag, 2);
  });

  it('lets the spares of a tag nobody uses go, halving every idleMs down to none', async () => {
    const tag = open('each-run', spares(16, 400));
    await burst(tag, 3);
    // Three wanted, then one, then none: the idle watch retires what is no longer wanted.
    await expect.poll(() => tag.snapshot().available.length, { timeout: 20_000 }).toBe(0);
    // A run after that starts its own thread, and wants a spare again.
    await burst(tag, 1);
    await expect.poll(() => tag.snapshot().available.length, { timeout: 20_000 }).toBe(1);
  });

  it("starts one spare beside a lone run under 'each-run' that waits for its own thread, in a slot its tag's share leaves", async () => {
    // One start per tag and two host-wide, as on 2 cores: back-to-back runs keep both busy.
    const gate = new StartGate({ threadStarts: 2, threadStartsPerTag: 1 });
    const tag = open('each-run', { ...spares(16), gate });
    await warmSpares(tag, 0);
    const first = await tag.acquire('run');
    expect(first.loaded).toBe(false);
    expect(gate.snapshot()).toEqual({ starting: 2, waiting: 0 });
    expect(tag.counts()).toMatchObject({ busy: 1, starting: 1, spares: 1 });
    const spare = tag.snapshot().spare!;
    await tag.release(first, { ranRun: true, poisoned: false });
    // The next run, right behind, takes the spare that started beside the first.
    const second = await tag.acquire('run');
    expect(second.threadId).toBe(spare);
    await tag.release(second, { ranRun: true, poisoned: false });
  });

  it("starts no spare beside a run whose thread the policy keeps ('never'), and one at most beside a burst", async () => {
    const kept = open('never');
    await warmSpares(kept, 0);
    const run = await kept.acquire('run');
    expect(kept.counts()).toMatchObject({ busy: 1, starting: 0, spares: 0 });
    await kept.release(run, { ranRun: true, poisoned: false });
    await kept.close();
    const tag = open('each-run', spares(16));
    await warmSpares(tag, 0);
    const handles = await Promise.all([tag.acquire('run'), tag.acquire('run'), tag.acquire('run')]);
    // Only the first, alone when it was lent its thread, had a start beside it (which the others may have taken).
    const { busy, starting, idle } = tag.counts();
    expect(busy).toBe(3);
    expect(busy + starting + idle).toBeLessThanOrEqual(4);
    await Promise.all(handles.map((handle) => tag.release(handle, { ranRun: true, poisoned: false })));
  });

  it('hands a run a warm spare before a newer one still starting', async () => {
    const tag = open('each-run', spares(16));
    await burst(tag, 2);
    await warmSpares(tag, 2);
    const [older, newer] = tag.snapshot().available;
    // The run on the newer warm spare gives it back: the spare that replaces it is still starting.
    const first = await tag.acquire('run');
    expect(first.threadId).toBe(newer);
    await tag.release(first, { ranRun: true, poisoned: false });
    expect(tag.counts()).toMatchObject({ idle: 1, starting: 1, spares: 2 });
    const second = await tag.acquire('run');
    expect(second.threadId).toBe(older);
    expect(second.loaded).toBe(true);
    await tag.release(second, { ranRun: true, poisoned: false });
  });

  it('stops warming up a spare a run took at the first warm-up: the run goes next', async () => {
    const tag = open('each-run', spares(16));
    await warmSpares(tag, 0);
    await tag.release(await tag.acquire('run'), { ranRun: true, poisoned: false });
    // The spare started by that release is taken at once, while it still warms up.
    const taken = await tag.acquire('run');
    expect(taken.runs).toBe(0);
    expect(taken.loaded).toBe(false);
    await expect.poll(() => taken.loaded, { timeout: 20_000 }).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(taken.warmUps).toBe(1);
    await tag.release(taken, { ranRun: true, poisoned: false });
    // A spare nobody took gets all three.
    const spare = await tag.acquire('call');
    void tag.release(spare, { ranRun: false, poisoned: false });
    await expect.poll(() => spare.state, { timeout: 20_000 }).toBe('idle');
    expect(spare.warmUps).toBe(3);
  });

  it('hands a thread given back to a run waiting in the admission queue, without waiting for a start slot', async () => {
    const gate = new StartGate({ threadStarts: 1, threadStartsPerTag: 1 });
    const tag = open('never', { ...spares(0), gate });
    const first = await tag.acquire('run');
    // Every start slot is taken (another tag's start, say): a second run must wait in the queue.
    await expect.poll(() => gate.snapshot().starting).toBe(0);
    const held = gate.tryEnter('other')!;
    const second = tag.acquire('run');
    await expect.poll(() => gate.snapshot().waiting).toBe(1);
    await tag.release(first, { ranRun: true, poisoned: false });
    expect(await second).toBe(first);
    expect(gate.snapshot()).toEqual({ starting: 1, waiting: 0 });
    held();
  });

  it('starts a spare when a run gives back a thread that was retired before it ran', async () => {
    const tag = open('each-run');
    const handle = await tag.acquire('run');
    await tag.release(handle, { ranRun: false, poisoned: true });
    expect(tag.snapshot().spare).toBeDefined();
    expect(tag.snapshot().spare).not.toBe(handle.threadId);
  });

  it('returns a thread used only for a probe or effect call, and starts no spare for it', async () => {
    const tag = open('each-run');
    const handle = await tag.acquire('call');
    expect(tag.snapshot()).toEqual({ available: [], busy: [handle.threadId], spare: undefined });
    await tag.release(handle, { ranRun: false, poisoned: false });
    expect(tag.snapshot()).toEqual({ available: [handle.threadId], busy: [], spare: handle.threadId });
    expect((await tag.acquire('run')).threadId).toBe(handle.threadId);
  });

  // A warm host's run takes its thread in the same turn (withLease): no microtask turns spent on `acquire`.
  it('hands out an idle thread at once, the one acquire would pick, and nothing when none is idle', async () => {
    const tag = open('never');
    expect(tag.acquireIdle('run')).toBeUndefined();
    expect(tag.counts()).toMatchObject({ busy: 0 });
    const first = await tag.acquire('run');
    await tag.release(first, { ranRun: true, poisoned: false });
    await warmSpares(tag, 2);
    const spare = tag.snapshot().spare;
    // The policy's pick, as acquire's: the thread that ran, not the spare; lent out.
    expect(tag.acquireIdle('run')).toBe(first);
    expect(tag.snapshot()).toEqual({ available: [spare], busy: [first.threadId], spare });
    expect(tag.acquireIdle('call')?.threadId).toBe(spare);
    expect(tag.acquireIdle('run')).toBeUndefined();
    await tag.close();
    expect(() => tag.acquireIdle('run')).toThrow(/the threads of state are closed/);
  });

  it("counts a run that took an idle thread at once as in flight: alone on a spare still starting, under 'each-run', it gets a spare beside it", async () => {
    const tag = open('each-run', spares(16));
    await tag.release(await tag.acquire('run'), { ranRun: true, poisoned: false });
    // The retired thread's replacement, taken while it still starts.
    await expect.poll(() => tag.snapshot().spare, { interval: 2, timeout: 20_000 }).toBeDefined();
    const spare = tag.snapshot().spare;
    const taken = tag.acquireIdle('run')!;
    expect(taken.threadId).toBe(spare);
    expect(taken.loaded).toBe(false);
    expect(tag.counts()).toMatchObject({ busy: 1, spares: 1 });
    expect(tag.snapshot().spare).not.toBe(spare);
    await tag.release(taken, { ranRun: true, poisoned: false });
  });

  it("prefers a thread that already ran under 'never', keeping the spare fresh", async () => {
    const tag = open('never');
    const first = await tag.acquire('run');
    await tag.release(first, { ranRun: true, poisoned: false });
    const spare = tag.snapshot().spare;
    expect(spare).toBeDefined();
    expect((await tag.acquire('run')).threadId).toBe(first.threadId);
    expect(tag.snapshot().spare).toBe(spare);
  });

  it("under 'never' hands a run the thread that has run most, wherever it sits", async () => {
    const tag = open('never');
    const [a, b] = [await tag.acquire('run'), await tag.acquire('run')];
    await tag.release(b, { ranRun: true, poisoned: false });
    expect(await tag.acquire('run')).toBe(b);
    await tag.release(b, { ranRun: true, poisoned: false });
    await tag.release(a, { ranRun: true, poisoned: false });
    // Now b has run twice, a once (given back last) and the spare never.
    expect([a.runs, b.runs]).toEqual([1, 2]);
    expect(tag.snapshot().available).toEqual([tag.snapshot().spare, b.threadId, a.threadId]);
    expect(await tag.acquire('run')).toBe(b);
    expect(await tag.acquire('run')).toBe(a);
  });

  it('retires a poisoned thread whatever the policy', async () => {
    const tag = open('never');
    const handle = await tag.acquire('run');
    await tag.release(handle, { ranRun: true, poisoned: true });
    expect(handle.deathReason).toBe('the host retired the worker thread');
    expect(tag.snapshot()).toMatchObject({ available: [expect.any(Number)], busy: [] });
    expect(tag.snapshot().available).not.toContain(handle.threadId);
    await expect(handle.post({ kind: 'probe', id: 1 } as never)).rejects.toThrow('the host retired the worker thread');
  });

  it('moves a thread through its named states: busy when lent, idle when kept, retiring then dead when retired', async () => {
    const tag = open({ afterRuns: 2 });
    const handle = await tag.acquire('run');
    expect(handle.state).toBe('busy');
    await tag.release(handle, { ranRun: true, poisoned: false });
    // A thread started for a run answers one warm-up task first (its start slot is held until then).
    await expect.poll(() => handle.state).toBe('idle');
    expect(await tag.acquire('run')).toBe(handle);
    expect(handle.state).toBe('busy');
    const retired = tag.release(handle, { ranRun: true, poisoned: false });
    await new Promise((resolve) => setImmediate(resolve));
    expect(handle.state).toBe('retiring');
    await retired;
    expect(handle.state).toBe('dead');
  });

  it('counts a new spare as starting until its warm-up ends, then idle', async () => {
    const tag = open('each-run');
    await tag.release(await tag.acquire('run'), { ranRun: true, poisoned: false });
    // Taken and given back in the same turn it was started in: its warm-up cannot have ended.
    const spare = await tag.acquire('call');
    void tag.release(spare, { ranRun: false, poisoned: false });
    expect(spare.state).toBe('starting');
    await expect.poll(() => spare.state).toBe('idle');
  });

  it('terminates every thread on close and refuses to hand out more', async () => {
    const tag = open('each-run');
    const busy = await tag.acquire('run');
    await tag.close();
    expect(busy.deathReason).toBe('the host retired the worker thread');
    await expect(tag.acquire('run')).rejects.toThrow(/closed/);
  });
});

// A new spare runs the built-in no-op executor through a run's path before any real run, so its
// first EXEC finds that code compiled: the path a run whose caller passed no effect takes.
describe('a spare warms up', () => {
  let handle: WorkerHandle | undefined;
  afterEach(async () => {
    await handle?.terminate();
    handle = undefined;
  });

  it('through the run path with its effect folded in, each warm-up answered by the built-in executor', async () => {
    handle = new WorkerHandle(spec);
    const answered: { task: WorkerTask; reply: TaskReply }[] = [];
    const post = handle.post.bind(handle);
    handle.post = async (task) => {
      const reply = await post(task);
      answered.push({ task, reply });
      return reply;
    };
    await handle.warmUp();

    expect(handle.warmUps).toBe(3);
    expect(answered).toHaveLength(3);
    for (const { task, reply } of answered) {
      // A run's fields, in a run's order (execute-run.ts), with no run marker: what the thread
      // starts meanwhile is the thread's own.
      expect(Object.keys(task)).toEqual(['kind', 'request', 'id', 'announce', 'effect']);
      expect(task).toMatchObject({ kind: 'warm', announce: false, effect: true });
      expect(Object.keys((task as { request: object }).request)).toEqual([
        'runtime',
        'body',
        'cwd',
        'target',
        'hasEntry',
      ]);
      // The effect check and the run both passed: a warm-up that failed would only be dropped.
      expect(reply).toMatchObject({ ok: true, value: { status: 200 } });
    }
  });
});
