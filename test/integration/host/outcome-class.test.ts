import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootHost, OUTCOME_CLASSES, type Host } from '../../../src/host/index.js';
import { classifyOutcome } from '../../../src/model/outcome-class.js';
import { hostFailure } from '../../../src/model/host-problems.js';
import { Results } from '../../../src/index.js';
import { fixtureDiscovery } from '../../helpers/fixture-discovery.js';

// `out.outcome` is the one classification a service branches on; each class from a real run.
describe('out.outcome', () => {
  let host: Host;
  beforeAll(async () => {
    host = await bootHost(fixtureDiscovery(['exec-outcomes']), { limits: { graceMs: 5000 } });
  });
  afterAll(async () => {
    await host.close();
  });

  it('is ok for a success and failed for the leaf’s own failure', async () => {
    expect((await host.exec({ runtime: 'outcomes', body: 'ok' })).outcome).toBe('ok');
    const failed = await host.exec({ runtime: 'outcomes', body: 'fail' });
    expect(failed).toMatchObject({ outcome: 'failed', result: { status: 500 } });
  });

  it('is cancelled when the caller aborts, whichever Problem type the leaf used', async () => {
    const controller = new AbortController();
    const run = host.exec({ runtime: 'outcomes', body: 'wait', signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    const out = await run;
    expect(out.result.problem?.type).toMatch(/\/outcomes\/cancelled$/);
    expect(out.outcome).toBe('cancelled');
  });

  it('is timeout when the deadline passes', async () => {
    const out = await host.exec({ runtime: 'outcomes', body: 'wait', timeoutMs: 50 });
    expect(out).toMatchObject({ outcome: 'timeout', result: { status: 504 } });
  });

  it('is refused before a run, for an unknown tag and a cwd that is no directory', async () => {
    expect((await host.exec({ runtime: 'cobol', body: 'x' })).outcome).toBe('refused');
    const missing = await host.exec({ runtime: 'outcomes', body: 'ok', cwd: '/nonexistent/plurnk-execs' });
    expect(missing).toMatchObject({ outcome: 'refused', result: { status: 400 } });
  });

  it('is leaf-fault when the leaf throws', async () => {
    expect((await host.exec({ runtime: 'outcomes', body: 'throw' })).outcome).toBe('leaf-fault');
  });

  it('is failed, not timeout, for a leaf that spoofs the host’s Problem type', async () => {
    const out = await host.exec({ runtime: 'outcomes', body: 'spoof' });
    expect(out.result.problem?.type).toBe('https://problems.plurnk.xyz/scheme/exec/execution-timeout');
    expect(out.outcome).toBe('failed');
  });

  it('is host-fault when the host could not judge the run, and every class is in OUTCOME_CLASSES', () => {
    const judged = hostFailure('executor-threw', 'the host could not judge the run');
    expect(classifyOutcome(judged, { reason: 'host-error', terminated: true })).toBe('host-fault');
    expect(classifyOutcome(judged, null)).toBe('leaf-fault');
    expect(classifyOutcome(Results.success(), null)).toBe('ok');
    expect(OUTCOME_CLASSES).toEqual(['ok', 'failed', 'cancelled', 'timeout', 'refused', 'leaf-fault', 'host-fault']);
  });
});

describe('executor-threw', () => {
  let host: Host;
  beforeAll(async () => {
    host = await bootHost(fixtureDiscovery(['exec-outcomes']));
  });
  afterAll(async () => {
    await host.close();
  });

  it("carries a bounded stack of the leaf's own frames, so its author can find the line", async () => {
    const out = await host.exec({ runtime: 'outcomes', body: 'throw' });
    expect(out.result.problem).toMatchObject({ error: 'TypeError' });
    const stack = out.result.problem?.stack as string[];
    expect(stack[0]).toMatch(/^parseLeafConfig \(file:\/\/.*\/fixtures\/host\/exec-outcomes\/index\.js:\d+:\d+\)$/);
    expect(stack.length).toBeLessThanOrEqual(10);
    expect(stack.join('\n')).not.toMatch(/node:|\/dist\/worker\//);
  });

  it('carries the stack when effect() throws too', async () => {
    const out = await host.exec({ runtime: 'outcomes-bad-effect', body: 'x' });
    expect(out).toMatchObject({ outcome: 'leaf-fault', effect: null, result: { status: 500 } });
    expect(out.result.problem?.detail).toBe('effect() threw: RangeError: no effect rule for this tag');
    expect((out.result.problem?.stack as string[])[0]).toMatch(
      /^classifyTarget \(file:\/\/.*\/exec-outcomes\/index\.js:\d+:\d+\)$/,
    );
  });
});
