import { afterEach, describe, expect, it } from 'vitest';
import type { TaskReply, WorkerTask } from '../../../src/contracts/protocol.js';
import { WorkerHandle } from '../../../src/thread-host/threads/worker-handle.js';
import { resolveHostOptions } from '../../../src/model/host-options.js';
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
