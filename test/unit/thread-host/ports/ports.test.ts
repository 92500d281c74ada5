import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { openControlPort } from '../../../../src/thread-host/ports/control-port.js';
import { openGroupClaims } from '../../../../src/thread-host/ports/group-claims.js';
import { liveOwners } from '../../../../src/thread-host/ports/live-claims.js';
import { ThreadPort } from '../../../../src/thread-host/ports/thread-port.js';
import { exposeSinks } from '../../../../src/thread-host/ports/sink-port.js';
import { RunStream } from '../../../../src/thread-host/ports/run-stream.js';
import { DEFAULT_LIMITS } from '../../../../src/contracts/limits.js';
import { proxySinks, TAKEN_AT_REPLY } from '../../../../src/worker/sink-proxy.js';

const decls = { out: { mimetype: 'text/plain' }, err: { mimetype: 'text/plain' } };

/** Both ends of a run's sink port in one thread: the worker's proxy and the host's stream. */
function pair() {
  const stream = new RunStream(decls);
  const host = exposeSinks(stream);
  const posted: unknown[] = [];
  const post = host.workerPort.postMessage.bind(host.workerPort);
  host.workerPort.postMessage = (message: unknown, transfer?: never) => {
    posted.push(message);
    post(message, transfer);
  };
  const worker = proxySinks(host.workerPort, { hasEntry: false, budget: DEFAULT_LIMITS.sinkMessages });
  const close = () => {
    worker.close();
    host.close();
  };
  return { stream, posted, ...worker, drain: host.drain, close };
}

describe('the sink port', () => {
  it('lands interleaved writes on the right channels, in order, with their mimetypes', async () => {
    const { stream, posted, sinks, flush, close } = pair();
    sinks.write('out', 'a');
    sinks.write('out', 'b');
    sinks.write('err', 'E1');
    sinks.write('out', '{"c":1}', 'application/json');
    sinks.write('out', 'd');
    sinks.setState('err', 'closed');
    sinks.write('out', 'e');
    sinks.write('err', 'late');
    await flush();
    close();
    expect(stream.channels.out!.parts).toEqual([
      { mimetype: 'text/plain', text: 'ab' },
      { mimetype: 'application/json', text: '{"c":1}de' },
    ]);
    expect(stream.channels.err).toMatchObject({ text: 'E1', state: 'closed' });
    expect(stream.violations).toEqual([{ kind: 'inactive-channel', detail: 'write to err after it became closed' }]);
    // A write to the channel of the last plain write travels as a bare string.
    expect(posted.slice(0, 8)).toEqual([
      ['write', 'out', 'a', undefined],
      'b',
      ['write', 'err', 'E1', undefined],
      ['write', 'out', '{"c":1}', 'application/json'],
      ['write', 'out', 'd', undefined],
      ['setState', 'err', 'closed'],
      'e',
      ['write', 'err', 'late', undefined],
    ]);
  });

  it('sends a refused write in full, so the host names what was wrong', async () => {
    const { stream, sinks, flush, close } = pair();
    sinks.write('out', 'ok');
    sinks.write('out', 42 as unknown as string);
    sinks.write('nope', 'x');
    sinks.write('nope', 'y');
    await flush();
    close();
    expect(stream.channels.out!.text).toBe('ok');
    expect(stream.violations).toEqual([
      { kind: 'invalid-write', detail: 'write to out: chunk must be a string, received number' },
      { kind: 'undeclared-channel', detail: 'write to undeclared channel "nope" (declared: out, err)' },
      { kind: 'undeclared-channel', detail: 'write to undeclared channel "nope" (declared: out, err)' },
    ]);
  });

  it('records a bare-string write that arrives before any write named its channel', async () => {
    const stream = new RunStream(decls);
    const host = exposeSinks(stream);
    const worker = proxySinks(host.workerPort, { hasEntry: false, budget: DEFAULT_LIMITS.sinkMessages });
    // What a worker following the protocol never sends: a short write before any channel was named.
    host.workerPort.postMessage('orphan');
    worker.sinks.write('out', 'x');
    await worker.flush();
    worker.close();
    host.close();
    expect(stream.channels.out!.text).toBe('x');
    expect(stream.violations).toEqual([
      { kind: 'malformed-sink-call', detail: 'a bare-string write arrived before any write named its channel' },
    ]);
  });
});

describe('the end of a run’s sink calls', () => {
  const isFlush = (message: unknown) => Array.isArray(message) && message[0] === 'flush';

  it('sends no barrier for a few calls: the host takes them from the port when the reply arrives', async () => {
    const { stream, posted, sinks, settle, close } = pair();
    for (let i = 0; i < TAKEN_AT_REPLY - 1; i++) sinks.write('out', 'x');
    sinks.setState('out', 'closed');
    await settle();
    expect(posted.some(isFlush)).toBe(false);
    close();
    // Nothing applied them: what the run posted is queued for the host's drain at the reply.
    expect(stream.channels.out!.text).toBe('');
  });

  it('drains what a run left unflushed, in order, when the host takes them at the reply', async () => {
    const { stream, sinks, settle, drain, close } = pair();
    sinks.write('out', 'a');
    sinks.write('err', 'b');
    sinks.write('out', 'c');
    sinks.setState('out', 'closed');
    await settle();
    drain();
    close();
    expect(stream.channels.out).toMatchObject({ text: 'ac', state: 'closed' });
    expect(stream.channels.err!.text).toBe('b');
  });

  it('sends a barrier past that many, answered once every call before it was applied', async () => {
    const { stream, posted, sinks, settle, close } = pair();
    for (let i = 0; i <= TAKEN_AT_REPLY; i++) sinks.write('out', 'x');
    await settle();
    expect(posted.filter(isFlush)).toHaveLength(1);
    expect(stream.channels.out!.text).toBe('x'.repeat(TAKEN_AT_REPLY + 1));
    // The barrier itself is no call left unflushed: a run that posts nothing more needs no second one.
    await settle();
    expect(posted.filter(isFlush)).toHaveLength(1);
    close();
  });
});

describe('draining a port whose thread is gone', () => {
  it('applies the sink calls already queued, without waiting for their message events', async () => {
    const stream = new RunStream(decls);
    const host = exposeSinks(stream);
    const worker = proxySinks(host.workerPort, { hasEntry: false, budget: DEFAULT_LIMITS.sinkMessages });
    worker.sinks.write('out', 'written ');
    worker.sinks.write('out', 'before the end');
    worker.sinks.setState('out', 'closed');
    // Synchronously, as the host does once it learnt that the thread died.
    host.drain();
    expect(stream.channels.out).toMatchObject({ text: 'written before the end', state: 'closed' });
    await new Promise((resolve) => setImmediate(resolve));
    expect(stream.channels.out!.text).toBe('written before the end');
    worker.close();
    host.close();
  });

  it('closing a control port first handles the reports already queued, so no process group is lost', () => {
    const heard: string[] = [];
    const control = openControlPort('marker', (message) => heard.push(message.type));
    // A group the port accepts: its leader descends from this process and started after the port opened.
    const child = spawn('sleep', ['30'], { detached: true, stdio: 'ignore' });
    try {
      control.workerPort.postMessage({ type: 'process-group', pgid: child.pid });
      control.workerPort.postMessage({ type: 'violation', kind: 'thread-ban', message: 'late' });
      control.close();
      expect([...control.groups]).toEqual([child.pid]);
      expect(heard).toEqual(['process-group', 'violation']);
    } finally {
      child.kill('SIGKILL');
      control.workerPort.close();
    }
  });

  it('refuses a reported group that is not the task’s own, and says why unless it is merely gone', () => {
    const refused: string[] = [];
    const control = openControlPort({
      claims: openGroupClaims('marker'),
      onRefused: (pgid, why) => refused.push(`${pgid}: ${why}`),
    });
    control.workerPort.postMessage({ type: 'process-group', pgid: process.pid });
    // Past Linux's largest pid_max (2^22): no process is in it, which is no sign of forgery (a short-lived child's group is gone too).
    control.workerPort.postMessage({ type: 'process-group', pgid: 4_194_305 });
    control.close();
    expect([...control.groups]).toEqual([]);
    expect(control.refusedGroups).toBe(2);
    expect(refused).toEqual([`${process.pid}: that is the host process`]);
    control.workerPort.close();
  });
});

describe('a task’s group claims', () => {
  it('remember the first group reported, whatever its verdict: the first process the task started', () => {
    const claims = openGroupClaims('first-marker');
    expect(claims.first).toBeUndefined();
    // Gone (past Linux's largest pid_max), then the host's own: refused, yet the first stays the first.
    claims.claim(4_194_305);
    claims.claim(process.pid);
    expect(claims.first).toBe(4_194_305);
    expect(claims.refused).toBe(2);
    claims.close();
  });
});

describe('the live claims the engine’s namespace sweep reads', () => {
  it('counts a group reported but not yet handled, and forgets a claim once it is closed', () => {
    // The claims' drain takes what is queued on the port they are then opened with.
    const channel: { drain?: () => void } = {};
    const claims = openGroupClaims('live-marker', () => channel.drain?.());
    const control = openControlPort({ claims });
    channel.drain = control.drain;
    const child = spawn('sleep', ['30'], { detached: true, stdio: 'ignore' });
    try {
      control.workerPort.postMessage({ type: 'process-group', pgid: child.pid });
      // Synchronously, as the engine sweeps: the report's message event has not come yet.
      const live = liveOwners();
      expect(live.markers.has('live-marker')).toBe(true);
      expect(live.groups.has(child.pid!)).toBe(true);
      claims.close();
      expect(liveOwners().markers.has('live-marker')).toBe(false);
      expect(liveOwners().groups.has(child.pid!)).toBe(false);
    } finally {
      child.kill('SIGKILL');
      control.close();
      control.workerPort.close();
    }
  });

  it('stops a drain after the message `until` names, leaving what follows for its events', () => {
    const heard: unknown[] = [];
    const port = new ThreadPort({ receive: (message) => heard.push(message) });
    port.workerPort.postMessage('report');
    port.workerPort.postMessage('reply');
    port.workerPort.postMessage('the next binding’s');
    port.drain((message) => message === 'reply');
    expect(heard).toEqual(['report', 'reply']);
    expect(port.take()).toEqual({ message: 'the next binding’s' });
    port.close();
    port.workerPort.close();
  });
});
