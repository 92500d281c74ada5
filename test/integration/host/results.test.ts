import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootHost, type Host } from '../../../src/host/index.js';
import { validateResult } from '../../../src/index.js';
import { fixtureDiscovery } from '../../helpers/fixture-discovery.js';

// The result crosses the thread raw and is validated at the host's boundary; a throw or an
// invalid value becomes the host's own failure, and every declared channel ends terminal.
describe('results at the thread boundary', () => {
  let host: Host;
  beforeAll(async () => {
    host = await bootHost(fixtureDiscovery(['exec-misbehaves']));
  });
  afterAll(() => host.close());

  it("turns a throw into 500 executor-threw with the leaf error's name and message, keeping earlier output", async () => {
    const out = await host.exec({ runtime: 'misbehave', body: 'throw' });
    expect(out.result).toMatchObject({
      status: 500,
      problem: {
        type: 'https://problems.plurnk.xyz/scheme/exec/executor-threw',
        status: 500,
        detail: 'run() threw: LeafError: the leaf gave up',
        error: 'LeafError',
      },
    });
    expect(validateResult(out.result).ok).toBe(true);
    expect(out.channels.out).toMatchObject({ text: 'before the throw', state: 'errored' });
    expect(out.channels.err!.state).toBe('errored');
  });

  it('describes a thrown non-Error value', async () => {
    const out = await host.exec({ runtime: 'misbehave', body: 'throw-string' });
    expect(out.result.problem?.detail).toBe('run() threw: NonError: a bare string');
  });

  it.each([
    ['invalid-result', /error: results carry failures as `problem`/],
    ['problem-mismatch', /problem.status must equal status/],
    ['unclonable', /cannot cross the thread: DataCloneError/],
  ])('turns the invalid result of %s into 500 executor-invalid-result', async (body, detail) => {
    const out = await host.exec({ runtime: 'misbehave', body });
    expect(out.result.status).toBe(500);
    expect(out.result.problem?.type).toBe('https://problems.plurnk.xyz/scheme/exec/executor-invalid-result');
    expect(out.result.problem?.detail).toMatch(detail);
    expect(Object.values(out.channels).map((c) => c.state)).toEqual(['errored', 'errored']);
  });

  it('closes channels left active after a success', async () => {
    const out = await host.exec({ runtime: 'misbehave', body: 'nothing' });
    expect(out.result).toEqual({ status: 200 });
    expect(Object.values(out.channels).map((c) => c.state)).toEqual(['closed', 'closed']);
  });

  it("marks channels left active as errored after the leaf's own failure, which stands", async () => {
    const out = await host.exec({ runtime: 'misbehave', body: 'fail-open' });
    expect(out.result).toMatchObject({
      status: 500,
      problem: { type: 'https://problems.plurnk.xyz/misbehave/went-wrong' },
    });
    expect(out.channels.out).toMatchObject({ text: 'partial', state: 'errored' });
  });

  it('settles 500 when the thread dies during run(), keeping earlier output, and the tag works again', async () => {
    const out = await host.exec({ runtime: 'misbehave', body: 'exit' });
    expect(out.result.problem).toMatchObject({
      type: 'https://problems.plurnk.xyz/scheme/exec/executor-threw',
      detail: 'the worker thread died during run(): the worker thread exited with code 3',
    });
    expect(out.channels.out).toMatchObject({ text: 'about to exit', state: 'errored' });
    expect((await host.exec({ runtime: 'misbehave', body: 'nothing' })).result.status).toBe(200);
  });

  it('bounds leaf text in a Problem detail with the error-detail limit', async () => {
    const small = await bootHost(
      fixtureDiscovery(['exec-misbehaves'], { env: { PLURNK_EXECS_ERROR_DETAIL_LIMIT: '12' } }),
    );
    try {
      const out = await small.exec({ runtime: 'misbehave', body: 'throw' });
      expect(out.result.problem?.detail).toBe('run() threw:...');
    } finally {
      await small.close();
    }
  });
});
