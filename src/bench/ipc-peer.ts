import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { PeerRequest, PortPeer } from './port-peer.js';

const CHILD = fileURLToPath(new URL('./ipc-peer-child.js', import.meta.url));

/**
 * A plain child process at the far end of Node's IPC channel (`serialization: 'advanced'`, the
 * V8 serializer the engine's framed pipe uses too): the process tier's baseline, as
 * {@link startPortPeer} is the thread tier's. Waits until it answers once.
 */
export async function startIpcPeer(): Promise<PortPeer> {
  const child = fork(CHILD, [], { serialization: 'advanced', stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  let onMessage: (message: unknown) => void = () => {};
  child.on('message', (message: unknown) => onMessage(message));
  let nextId = 1;
  const peer: PortPeer = {
    roundTrip: () =>
      new Promise<void>((resolve) => {
        onMessage = () => resolve();
        child.send({ type: 'ping', id: nextId++ } satisfies PeerRequest);
      }),
    stream: (count, size) =>
      new Promise<number>((resolve) => {
        const kept: string[] = [];
        let chars = 0;
        onMessage = (message) => {
          if (message === null) return resolve(chars);
          kept.push(message as string);
          chars += (message as string).length;
        };
        child.send({ type: 'stream', count, size } satisfies PeerRequest);
      }),
    async close() {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill();
      await exited;
    },
  };
  await peer.roundTrip();
  return peer;
}
