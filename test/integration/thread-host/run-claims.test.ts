import { afterEach, describe, expect, it } from 'vitest';
import { executeRun, type RunEnd } from '../../../src/thread-host/dispatch/execute-run.js';
import { RunStream } from '../../../src/thread-host/ports/run-stream.js';
import { HostMemoryWatch } from '../../../src/thread-host/threads/memory-watchdog.js';
import { SharedTicker } from '../../../src/runtime/shared-ticker.js';
import { TagWorkers } from '../../../src/thread-host/threads/tag-workers.js';
import { resolveHostOptions } from '../../../src/model/host-options.js';
import { fixtureDiscovery } from '../../helpers/fixture-discovery.js';

const discovery = fixtureDiscovery(['exec-subprocess']);
const options = resolveHostOptions({});
/** Past the tick of slack a group's start time gets (runtime/group-leader.ts), and then some. */
const HELD_MS = 80;

/** The host's RSS watch, but the main thread is held `HELD_MS` when a run joins it, as a loaded machine holds it. */
class SlowWatch extends HostMemoryWatch {
  override add(...args: Parameters<HostMemoryWatch['add']>): () => void {
    const until = performance.now() + HELD_MS;
    while (performance.now() < until);
    return super.add(...args);
  }
}

describe("a run's claim to the groups its thread starts", () => {
  let workers: TagWorkers | undefined;
  let end: RunEnd | undefined;
  afterEach(async () => {
    for (const pgid of end?.groups ?? []) {
      try {
        process.kill(-pgid, 'SIGKILL');
      } catch {
        // Gone already.
      }
    }
    end?.release();
    await workers?.close();
  });

  // The task is posted before the run's claims are opened (the thread wakes while the host binds
  // its ports). A thread that starts its child before the host's main thread gets to the claims —
  // the main thread held, as under load — must still own it: the run began at the post. A leader
  // without the run's marker (it cleared it) is judged by its start time, which is then before
  // the claims were opened. Seen in CI under load as a spurious foreign-process-group violation.
  it('counts from the post, so a child started while the main thread was held is still the run’s own', async () => {
    const entry = discovery.registry.get('sh')!;
    workers = new TagWorkers(
      {
        boot: { tag: 'sh', glyph: '', entryUrl: entry.entryUrl, limits: options.limits },
        env: { PLURNK_EXECS_ERROR_DETAIL_LIMIT: '512' },
      },
      'never',
    );
    const handle = await workers.acquire('run');
    const { limits } = options;
    const closing = new AbortController();
    const run = (body: string, stream: RunStream, memory: HostMemoryWatch, timeoutMs: number) =>
      executeRun({
        handle,
        request: { runtime: 'sh', body, cwd: null, target: null, hasEntry: false },
        stream,
        sinks: undefined,
        signal: undefined,
        timeoutMs,
        detailLimit: 512,
        closing: closing.signal,
        limits,
        loadTimeoutMs: options.loadTimeoutMs,
        memory,
        heartbeats: new SharedTicker(limits.heartbeatMs, true),
      });
    const channels = () => new RunStream({ stdout: { mimetype: 'text/plain' }, stderr: { mimetype: 'text/plain' } });
    // A first run, so the leaf is loaded and the thread answers a task at once.
    const warm = await run(
      'true',
      channels(),
      new HostMemoryWatch(limits.rssMb, limits.heartbeatMs, 2 * limits.heartbeatMs),
      30_000,
    );
    expect(warm.result.status).toBe(200);
    warm.release();
    // The leader drops the run's marker, then outlives the report's judgement.
    const stream = channels();
    end = await run(
      'exec env -u PLURNK_EXECS_RUN sleep 1',
      stream,
      new SlowWatch(limits.rssMb, limits.heartbeatMs, 2 * limits.heartbeatMs),
      300,
    );
    expect(stream.violations).toEqual([]);
    expect(end.refusedGroups).toBe(0);
    expect(end.groups.size).toBe(1);
    await workers.release(handle, { ranRun: true, poisoned: end.poisoned });
  });
});
