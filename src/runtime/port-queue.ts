import { receiveMessageOnPort, type MessagePort } from 'node:worker_threads';

/**
 * Hands every message already queued on `port` to `receive`, in order, now — without waiting
 * for their 'message' events, which may come a loop turn later (or, when the sending thread
 * is gone, after the host has judged what it did).
 */
export function takeQueued(port: MessagePort, receive: (message: unknown) => unknown): void {
  for (let queued = receiveMessageOnPort(port); queued !== undefined; queued = receiveMessageOnPort(port))
    receive(queued.message);
}
