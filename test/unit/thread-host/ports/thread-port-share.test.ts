import { MessageChannel } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { CHARS_PER_UNIT, ThreadPort, TURN_SHARE } from '../../../../src/thread-host/ports/thread-port.js';
import { exposeSinks } from '../../../../src/thread-host/ports/sink-port.js';
import { RunStream } from '../../../../src/thread-host/ports/run-stream.js';

/** A plain port's message, posted behind `flood` messages already queued on a channel: how many of them were handled before it. */
function handledBefore(heard: () => number): { port: MessageChannel; seen: Promise<number> } {
  const port = new MessageChannel();
  const seen = new Promise<number>((resolve) => port.port1.once('message', () => resolve(heard())));
  return { port, seen };
}

/** Resolves once `done()` holds, checked each turn. */
async function until(done: () => boolean): Promise<void> {
  while (!done()) await new Promise((resolve) => setImmediate(resolve));
}

describe('a thread channel’s share of each turn of the loop', () => {
  it('hands a flood out a share per turn, so another port’s message is not held behind all of it', async () => {
    const heard: unknown[] = [];
    const channel = new ThreadPort({ receive: (message) => void heard.push(message), pull: true });
    const flood = 20 * TURN_SHARE;
    for (let i = 0; i < flood; i++) channel.workerPort.postMessage(i);
    const other = handledBefore(() => heard.length);
    other.port.port2.postMessage('other');
    // Node hands a port every message queued when its handler started: without a share, all of the flood came first.
    expect(await other.seen).toBeLessThanOrEqual(2 * TURN_SHARE);
    await until(() => heard.length === flood);
    expect(heard).toEqual(Array.from({ length: flood }, (_, i) => i));
    other.port.port1.close();
    channel.close();
    channel.workerPort.close();
  });

  it('holds a receiver that takes its messages by events to the same share', async () => {
    let heard = 0;
    const channel = new ThreadPort({
      receive: () => {
        heard += 1;
      },
    });
    const flood = 20 * TURN_SHARE;
    for (let i = 0; i < flood; i++) channel.workerPort.postMessage('x');
    const other = handledBefore(() => heard);
    other.port.port2.postMessage('other');
    expect(await other.seen).toBeLessThanOrEqual(2 * TURN_SHARE);
    await until(() => heard === flood);
    other.port.port1.close();
    channel.close();
    channel.workerPort.close();
  });

  it('weighs a message by its text: a turn takes fewer large writes than one-character ones', async () => {
    const stream = new RunStream({ out: { mimetype: 'text/plain' } });
    const sinks = exposeSinks(stream);
    const chunk = 'x'.repeat(16 * CHARS_PER_UNIT);
    const writes = 4 * TURN_SHARE;
    sinks.workerPort.postMessage(['write', 'out', chunk]);
    for (let i = 1; i < writes; i++) sinks.workerPort.postMessage(chunk);
    const other = handledBefore(() => stream.channels.out!.text.length / chunk.length);
    other.port.port2.postMessage('other');
    // One turn's share is TURN_SHARE units; each write costs 17 of them.
    expect(await other.seen).toBeLessThanOrEqual(2 * Math.ceil(TURN_SHARE / 17));
    await until(() => stream.channels.out!.text.length === writes * chunk.length);
    other.port.port1.close();
    sinks.close();
    sinks.workerPort.close();
  });

  it('takes everything queued at once when drained, whatever the share (a thread that died posted it)', () => {
    let heard = 0;
    const channel = new ThreadPort({
      receive: () => {
        heard += 1;
      },
    });
    for (let i = 0; i < 3 * TURN_SHARE; i++) channel.workerPort.postMessage(i);
    channel.drain();
    expect(heard).toBe(3 * TURN_SHARE);
    channel.close();
    channel.workerPort.close();
  });

  it('lets an idle process exit while a channel waits for its next turn', async () => {
    const { spawnSync } = await import('node:child_process');
    const script = `
      const { ThreadPort, TURN_SHARE } = await import(${JSON.stringify(new URL('../../../../dist/thread-host/ports/thread-port.js', import.meta.url).href)});
      const channel = new ThreadPort({ receive: () => {} });
      for (let i = 0; i < 3 * TURN_SHARE; i++) channel.workerPort.postMessage(i);
      channel.workerPort.unref();
      setTimeout(() => console.log('alive'), 50).unref();
    `;
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      encoding: 'utf8',
      timeout: 10_000,
    });
    expect(child.status).toBe(0);
    expect(child.stdout).toBe('');
  });
});
