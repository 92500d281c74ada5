import { MessageChannel, receiveMessageOnPort, type MessagePort } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { reportProcessGroup } from '../../../src/author/process-groups.js';
import { openControlLink, replyToHost, reportToHost } from '../../../src/worker/control-link.js';

/** The process-group reports queued on the host's end, in order. */
function groupsReported(host: MessagePort): unknown[] {
  const pgids: unknown[] = [];
  for (let queued = receiveMessageOnPort(host); queued !== undefined; queued = receiveMessageOnPort(host)) {
    const message = queued.message as { type?: unknown; pgid?: unknown };
    if (message.type === 'process-group') pgids.push(message.pgid);
  }
  return pgids;
}

describe('a task’s control link', () => {
  it('reports each process group once per task, however many times it was reported in the thread', () => {
    const { port1: host, port2: worker } = new MessageChannel();
    try {
      const link = openControlLink(worker, 60_000, 1);
      // What a SubprocessExecutor run does: the spawn guard reports the child, then the executor does.
      reportToHost({ type: 'process-group', pgid: 4242 });
      reportProcessGroup(4242);
      reportProcessGroup(4343);
      reportToHost({ type: 'process-group', pgid: 4343 });
      link.close();
      expect(groupsReported(host)).toEqual([4242, 4343]);

      // The next task reports it again: the host's claims are per task.
      const next = openControlLink(worker, 60_000, 2);
      reportProcessGroup(4242);
      next.close();
      expect(groupsReported(host)).toEqual([4242]);
    } finally {
      host.close();
      worker.close();
    }
  });

  it('passes on a report whose pgid is no number, for the host to refuse and record', () => {
    const { port1: host, port2: worker } = new MessageChannel();
    try {
      const link = openControlLink(worker, 60_000, 3);
      const forged = { type: 'process-group', pgid: '4242' } as unknown as { type: 'process-group'; pgid: number };
      reportToHost(forged);
      reportToHost(forged);
      link.close();
      expect(groupsReported(host)).toEqual(['4242', '4242']);
    } finally {
      host.close();
      worker.close();
    }
  });

  it('gives each task a signal no earlier task held, the next one made once a task was answered', () => {
    const { port1: host, port2: worker } = new MessageChannel();
    try {
      const first = openControlLink(worker, 60_000, 10);
      first.abortLocally();
      first.close();
      replyToHost(worker, 10, { ok: true, value: null, threadId: 0 });
      const second = openControlLink(worker, 60_000, 11);
      expect(second.signal).not.toBe(first.signal);
      expect(first.signal.aborted).toBe(true);
      expect(second.signal.aborted).toBe(false);
      second.close();
      replyToHost(worker, 11, { ok: true, value: null, threadId: 0 });
      // Made ahead but unused: a task that follows one never answered gets it, unaborted.
      const third = openControlLink(worker, 60_000, 12);
      expect(third.signal.aborted).toBe(false);
      third.close();
    } finally {
      host.close();
      worker.close();
    }
  });

  it('gives a task a real signal whatever a leaf put in the global AbortController’s place', () => {
    const { port1: host, port2: worker } = new MessageChannel();
    const real = globalThis.AbortController;
    class Forged {
      readonly signal = { aborted: false, forged: true };
      abort(): void {}
    }
    try {
      globalThis.AbortController = Forged as unknown as typeof AbortController;
      const link = openControlLink(worker, 60_000, 20);
      replyToHost(worker, 20, { ok: true, value: null, threadId: 0 });
      const next = openControlLink(worker, 60_000, 21);
      expect(link.signal).toBeInstanceOf(AbortSignal);
      expect(next.signal).toBeInstanceOf(AbortSignal);
      link.close();
      next.close();
    } finally {
      globalThis.AbortController = real;
      host.close();
      worker.close();
    }
  });
});
