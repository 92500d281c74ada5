import { MessageChannel, receiveMessageOnPort, type MessagePort } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { reportProcessGroup } from '../../../src/author/process-groups.js';
import { openControlLink, reportToHost } from '../../../src/worker/control-link.js';

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
});
