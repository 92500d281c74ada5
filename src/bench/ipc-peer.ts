import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { peerOver, type PortPeer } from './port-peer.js';

const CHILD = fileURLToPath(new URL('./ipc-peer-child.js', import.meta.url));

/**
 * A plain child process at the far end of Node's IPC channel (`serialization: 'advanced'`, the
 * V8 serializer the engine's framed pipe uses too): the process tier's baseline, as
 * {@link startPortPeer} is the thread tier's. Waits until it answers once.
 */
export async function startIpcPeer(): Promise<PortPeer> {
  const child = fork(CHILD, [], { serialization: 'advanced', stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  const peer = peerOver(
    (request) => child.send(request),
    (listener) => child.on('message', listener),
    async () => {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill();
      await exited;
    },
  );
  await peer.roundTrip();
  return peer;
}
