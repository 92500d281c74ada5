import { getEventListeners } from 'node:events';
import { tmpdir } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHost, type Host } from '../../../src/host/index.js';
import { handshake } from '../../helpers/handshake.js';
import { watchHostErrors, zooDirs } from '../../helpers/zoo.js';

// The process tier's Host API is the thread tier's: the answering sinks round-trip to the
// service, abort reasons and deadlines cross to the engine, a throwing sink is recorded.
describe('the process tier carries the whole Host API across the engine boundary', () => {
  let host: Host;
  const hostErrors = watchHostErrors();
  beforeAll(async () => {
    host = await createHost({
      isolation: 'process',
      packageDirs: zooDirs('healthy', 'host/exec-interacts', 'host/exec-waits-for-abort', 'host/exec-subprocess'),
      limits: { graceMs: 300 },
    });
  });
  afterAll(async () => {
    await host.close();
    expect(hostErrors.errors).toEqual([]);
    hostErrors.dispose();
  });

  it('round-trips interact and entry to the service’s sinks', async () => {
    const asked: unknown[] = [];
    const out = await host.exec({
      runtime: 'ask',
      body: 'continue?',
      sinks: {
        interact: async (request) => (asked.push(request), { status: 'resolved', payload: { yes: true } }),
        entry: async (path, content, opts) => `entry:///${path}#${opts.tags.join(',')}:${content?.length}`,
      },
    });
    expect(out.result.status).toBe(200);
    expect(asked).toEqual([
      { toolName: 'confirm', arguments: { asked: true }, message: 'continue?', responseSchema: { type: 'object' } },
    ]);
    const resolution = { status: 'resolved', payload: { yes: true } };
    expect(JSON.parse(out.channels.results!.text)).toEqual({
      resolution,
      hasEntry: true,
      address: `entry:///notes/answer.md#answer:${JSON.stringify(resolution).length}`,
    });
  });

  it('resolves interactions cancelled without an interact sink, and hides entry without an entry sink', async () => {
    const out = await host.exec({ runtime: 'ask', body: 'x' });
    expect(JSON.parse(out.channels.results!.text)).toEqual({
      resolution: { status: 'cancelled' },
      hasEntry: false,
      address: null,
    });
  });

  /** A `wait-abort` run aborted with `reason` once the leaf said it waits. */
  async function abortedWhileWaiting(reason: unknown) {
    const controller = new AbortController();
    const waiting = handshake();
    const running = host.exec({
      runtime: 'wait-abort',
      body: 'x',
      signal: controller.signal,
      sinks: { write: () => waiting.resolve() },
    });
    await waiting.promise;
    controller.abort(reason);
    return running;
  }

  it('carries an abort reason to the leaf unchanged', async () => {
    const out = await abortedWhileWaiting(new RangeError('the user left'));
    expect(out.channels.out!.text).toBe('waiting\n{"reason":{"name":"RangeError","message":"the user left"}}');
  });

  it('starts the run after an aborted one unaborted: the engine keeps no aborted controller for later runs', async () => {
    for (let run = 0; run < 3; run++) await host.exec({ runtime: 'healthy', body: 'ok' });
    expect((await abortedWhileWaiting(new RangeError('the user left'))).result.status).toBe(499);
    // Only its own deadline ends the next one.
    const next = await host.exec({ runtime: 'wait-abort', body: 'x', timeoutMs: 200 });
    expect(next.result.problem?.type).toBe('https://problems.plurnk.xyz/scheme/exec/execution-timeout');
  });

  it('starts nothing for a signal aborted before the run, as the thread tier: the leaf sees it aborted at once', async () => {
    const controller = new AbortController();
    controller.abort(new RangeError('gone before it began'));
    // Sent a frame after the run, the abort raced the leaf's spawn: one run in a few lost it.
    for (let run = 0; run < 10; run++) {
      const out = await host.exec({ runtime: 'sh', body: 'echo should-not-run', signal: controller.signal });
      // 499 from the leaf (`cancelled`), or from the host, which may refuse it before a thread
      // takes it (`execution-cancelled`).
      expect(out.result).toMatchObject({ status: 499, problem: { type: expect.stringMatching(/cancelled$/) } });
      expect(out.channels.stdout?.text ?? '').toBe('');
    }
  });

  it('keeps the caller’s deadline: 504 execution-timeout', async () => {
    const out = await host.exec({ runtime: 'wait-abort', body: 'x', timeoutMs: 200 });
    expect(out.result.problem?.type).toBe('https://problems.plurnk.xyz/scheme/exec/execution-timeout');
  });

  it('records a throwing embedding sink as a violation and keeps the run', async () => {
    const out = await host.exec({
      runtime: 'healthy',
      body: 'ok',
      sinks: {
        write: () => {
          throw new Error('the service’s disk is full');
        },
      },
    });
    expect(out.result.status).toBe(200);
    expect(out.violations).toContainEqual({
      kind: 'embedding-sink',
      detail: expect.stringContaining('the service’s disk is full'),
    });
  });

  it('keeps one abort listener on a signal many runs share', async () => {
    const shared = new AbortController();
    const listeners = new Set<number>();
    const sample = setInterval(() => listeners.add(getEventListeners(shared.signal, 'abort').length), 1);
    const outs = await Promise.all(
      Array.from({ length: 16 }, () => host.exec({ runtime: 'healthy', body: 'ok', signal: shared.signal })),
    );
    clearInterval(sample);
    expect(outs.map((out) => out.result.status)).toEqual(outs.map(() => 200));
    // A listener per run would count up to 16 (and Node warns past 10).
    expect(Math.max(...listeners)).toBeLessThanOrEqual(1);
    expect(getEventListeners(shared.signal, 'abort')).toHaveLength(0);
  });

  it('rejects a malformed request in the service, and every call after close()', async () => {
    await expect(host.exec({ runtime: 'healthy' } as never)).rejects.toMatchObject({ code: 'invalid-request' });
    const closing = await createHost({ isolation: 'process', packageDirs: zooDirs('healthy') });
    await closing.close();
    await expect(closing.exec({ runtime: 'healthy', body: 'ok' })).rejects.toMatchObject({ code: 'host-closed' });
    await expect(closing.effect('healthy', null)).rejects.toMatchObject({ code: 'host-closed' });
  });
});

// The default write directories are the host's cwd and the temp directory; a service whose cwd
// is the temp directory named it twice, and Node 20's permission code crashed the engine on it.
describe('the process tier in a service whose cwd is the temp directory', () => {
  it('boots its engine and runs', async () => {
    const host = await createHost({ isolation: 'process', cwd: tmpdir(), packageDirs: zooDirs('healthy') });
    try {
      expect(host.isolation()).toMatchObject({ tier: 'process', permissionModel: true });
      expect((await host.exec({ runtime: 'healthy', body: 'in tmp' })).channels.out!.text).toBe('in tmp');
    } finally {
      await host.close();
    }
  });
});
