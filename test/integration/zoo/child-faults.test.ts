import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createHost, type Host } from '../../../src/host/index.js';
import { survivors } from '../../helpers/survivors.js';
import { expectContained, watchHostErrors, zooDirs } from '../../helpers/zoo.js';
import { tierOptions } from '../../helpers/tier.js';

// Children a leaf starts and never reports, by every child_process API and from every place
// leaf code runs. Each starts detached in a group of its own, marked with its run's (or
// thread's) PLURNK_EXECS_RUN and reported by the thread's guard, so the host kills it when its
// run ends, its thread is retired, or discovery has its hook's answer.
describe('the zoo: children nobody reported', () => {
  const hostErrors = watchHostErrors();
  afterEach(() => expect(hostErrors.errors).toEqual([]));
  afterAll(() => hostErrors.dispose());

  describe('from run()', () => {
    let host: Host;
    beforeAll(async () => {
      host = await createHost({
        ...tierOptions(),
        packageDirs: zooDirs('healthy', 'leaves-children'),
        breaker: { crashes: 1000 },
        limits: { graceMs: 300 },
      });
    });
    afterAll(() => host.close());

    it.each(['spawn', 'spawn-detached', 'exec', 'execFile', 'fork', 'execSync', 'spawnSync'])(
      'kills the child %s left when the run resolved, and counts it',
      async (api) => {
        const out = await expectContained(host, {
          runtime: 'leaves-children',
          body: api,
          status: 200,
          next: { body: 'ok' },
        });
        expect(Number(out.channels.out!.text)).toBeGreaterThan(1);
        expect(out.containment?.reapedProcesses).toBeGreaterThanOrEqual(1);
      },
    );
  });

  it('kills the children left at import, in the constructor, in probe(), in effect() and in the runtimes hook', async () => {
    const marker = randomUUID();
    process.env.ZOO_RUN = marker;
    process.env.ZOO_LEAVE_CHILD_AT = 'hook,import,constructor,probe,effect';
    let host: Host | undefined;
    try {
      host = await createHost({
        ...tierOptions(),
        packageDirs: zooDirs('healthy', 'leaves-children'),
        limits: { graceMs: 300 },
      });
      // The hook's child is gone once discovery has its answer.
      const out = await host.exec({ runtime: 'leaves-children', body: 'ok', env: { ...process.env } });
      expect(out.result).toEqual({ status: 200 });
      expect(out.channels.out!.text).toBe('ok');
    } finally {
      await host?.close();
      delete process.env.ZOO_RUN;
      delete process.env.ZOO_LEAVE_CHILD_AT;
    }
    expect(survivors({ marker })).toEqual([]);
  });
});
