import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import type { EngineProcess } from '../../../src/engine/engine-process.js';
import { RunRelay } from '../../../src/engine/run-relay.js';
import { parseExecRequest } from '../../../src/model/exec-request.js';

describe('the relay of one process-tier run', () => {
  it('settles a run once, 500 engine-crashed, when its engine is gone before the run reaches it', async () => {
    // A dead engine refuses every send; the death it reported came before this run was in
    // flight, so nothing else would ever settle it. (Which interleaving leaves a run here cannot
    // be produced on demand by a real engine: this stand-in is the engine after it.)
    const sent: unknown[] = [];
    const gone = {
      send: (message: unknown) => (sent.push(message), false),
      fail: () => {},
      command: { sandbox: null },
    } as unknown as EngineProcess;
    const relay = new RunRelay(7, 'sh', parseExecRequest({ runtime: 'sh', body: 'echo x' }), gone, 512, 1024);
    relay.begin();
    const out = await Promise.race([relay.settled, sleep(5000, 'never settled' as const)]);
    expect(out).toMatchObject({
      outcome: 'leaf-fault',
      result: { status: 500, problem: { type: expect.stringMatching(/\/engine-crashed$/) } },
      containment: { forcedEnd: { reason: 'engine-crashed', terminated: true } },
    });
    expect(sent).toHaveLength(1);
  });

  it('sends a signal already aborted with the run, in its exec frame, and no abort frame after it', () => {
    // A frame after the run raced the leaf's start (the engine could hand it a live signal and the
    // program would run); which way that race goes cannot be chosen with a real engine.
    const sent: { t: string; aborted?: unknown }[] = [];
    const engine = {
      send: (message: { t: string }) => (sent.push(message), true),
      fail: () => {},
      command: { sandbox: null },
    };
    const controller = new AbortController();
    controller.abort(new RangeError('gone before it began'));
    const request = parseExecRequest({ runtime: 'sh', body: 'echo x', signal: controller.signal });
    new RunRelay(3, 'sh', request, engine as unknown as EngineProcess, 512, 1024).begin();
    expect(sent).toEqual([
      expect.objectContaining({
        t: 'exec',
        id: 3,
        aborted: {
          kind: 'error',
          error: expect.objectContaining({ name: 'RangeError', message: 'gone before it began' }),
        },
      }),
    ]);
  });
});
