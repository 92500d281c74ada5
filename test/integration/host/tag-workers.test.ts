import { afterEach, describe, expect, it } from 'vitest';
import { TagWorkers } from '../../../src/host/threads/tag-workers.js';
import type { RecyclePolicy } from '../../../src/host/host-types.js';
import { fixtureDiscovery } from '../../helpers/fixture-discovery.js';

const entry = fixtureDiscovery(['exec-keeps-state']).registry.get('state')!;
const spec = {
  boot: { tag: 'state', glyph: '', entryUrl: entry.entryUrl },
  env: { PLURNK_EXECS_ERROR_DETAIL_LIMIT: '512' },
};

// The thread bookkeeping of one tag, with real threads: which thread a task gets, the warm
// spare, and retirement.
describe('TagWorkers', () => {
  let workers: TagWorkers | undefined;
  const open = (recycle: RecyclePolicy) => (workers = new TagWorkers(spec, recycle, 200));
  afterEach(async () => {
    await workers?.close();
  });

  it("keeps a warm spare under 'each-run', hands it to the next run, and retires a thread that ran", async () => {
    const tag = open('each-run');
    const first = await tag.acquire('run');
    // The spare is started when the run gives its thread back, so it never competes with the run.
    expect(tag.snapshot().spare).toBeUndefined();
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
    await expect(handle.post({ kind: 'probe' } as never, [])).rejects.toThrow('the host retired the worker thread');
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
