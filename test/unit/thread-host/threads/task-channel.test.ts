import type { MessagePort } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { MalformedReplyError, TaskChannel } from '../../../../src/thread-host/threads/task-channel.js';
import type { WorkerTask } from '../../../../src/contracts/protocol.js';

/** A task channel whose thread end is answered by hand in this thread. */
function channel() {
  const idle: unknown[] = [];
  const poisoned: string[] = [];
  const tasks = new TaskChannel({ receive: (message) => idle.push(message) }, (reason) => poisoned.push(reason));
  const thread: MessagePort = tasks.control.workerPort;
  const received: unknown[] = [];
  thread.on('message', (message: unknown) => received.push(message));
  const close = () => {
    thread.close();
    tasks.control.close();
    tasks.sinks.close();
  };
  return { tasks, thread, received, idle, poisoned, close };
}

const effect = (id: number): WorkerTask => ({ kind: 'effect', id, target: null });
const ok = (value: unknown) => ({ ok: true, value, threadId: 7 });

/** Resolves once `read()` is defined (the message arrived). */
async function until<T>(read: () => T | undefined): Promise<T> {
  for (;;) {
    const value = read();
    if (value !== undefined) return value;
    await new Promise((resolve) => setImmediate(resolve));
  }
}

describe('TaskChannel', () => {
  it('posts a task on the control channel and settles it with the reply, after the reports before it', async () => {
    const { tasks, thread, received, close } = channel();
    const heard: unknown[] = [];
    const unbind = tasks.control.bind({ receive: (message) => heard.push(message) });
    const reply = tasks.post(effect(41));
    expect(await until(() => received[0])).toEqual({ type: 'task', task: effect(41) });
    thread.postMessage({ type: 'started' });
    thread.postMessage({ type: 'reply', id: 41, reply: ok('pure') });
    await expect(reply).resolves.toEqual(ok('pure'));
    // The report reached the task's binding; the reply did not.
    expect(heard).toEqual([{ type: 'started' }]);
    expect(tasks.loaded).toBe(true);
    unbind();
    close();
  });

  it('poisons the thread and fails the task with a MalformedReplyError when the reply is malformed', async () => {
    const { tasks, thread, poisoned, close } = channel();
    const reply = tasks.post(effect(1));
    thread.postMessage({ type: 'reply', id: 1, reply: { ok: false, error: null } });
    const error = await reply.catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(MalformedReplyError);
    expect((error as Error).message).toMatch(/^the worker thread answered a malformed task reply \(/);
    expect(poisoned).toEqual([(error as Error).message]);
    // Nothing more is posted to a poisoned thread.
    await expect(tasks.post(effect(2))).rejects.toBe(error);
    close();
  });

  it('refuses a reply to a task the thread was not running', async () => {
    const { tasks, thread, poisoned, close } = channel();
    const reply = tasks.post(effect(5));
    thread.postMessage({ type: 'reply', id: 4, reply: ok('pure') });
    await expect(reply).rejects.toThrow(
      /^the worker thread answered a reply to task 4, which it was not running: .*the thread was retired$/,
    );
    expect(poisoned).toHaveLength(1);
    close();
  });

  it('takes a reply the thread posted before it died, and fails a task left unanswered with the death', async () => {
    const { tasks, thread, close } = channel();
    const answered = tasks.post(effect(8));
    thread.postMessage({ type: 'reply', id: 8, reply: ok('pure') });
    // The thread is gone before the reply's 'message' event: fail() takes what is queued first.
    tasks.fail('the worker thread exited with code 1');
    await expect(answered).resolves.toEqual(ok('pure'));
    await expect(tasks.post(effect(9))).rejects.toThrow('the worker thread exited with code 1');
    close();
  });

  it('fails the task in flight when the thread dies without answering', async () => {
    const { tasks, close } = channel();
    const reply = tasks.post(effect(3));
    tasks.fail('the worker thread ran out of JS heap (limits.heapMb) and died');
    await expect(reply).rejects.toThrow('the worker thread ran out of JS heap (limits.heapMb) and died');
    close();
  });

  it('posts a second task only after the first settled, so their messages never interleave', async () => {
    const { tasks, thread, received, close } = channel();
    const first = tasks.post(effect(10));
    const second = tasks.post(effect(11));
    await until(() => received[0]);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(received).toHaveLength(1);
    thread.postMessage({ type: 'reply', id: 10, reply: ok(1) });
    await expect(first).resolves.toEqual(ok(1));
    expect(await until(() => received[1])).toEqual({ type: 'task', task: effect(11) });
    thread.postMessage({ type: 'reply', id: 11, reply: ok(2) });
    await expect(second).resolves.toEqual(ok(2));
    close();
  });
});
