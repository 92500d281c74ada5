import { MessageChannel, Worker } from 'node:worker_threads';

/** What the main thread asks of the peer worker. */
export type PeerRequest =
  | { readonly type: 'ping'; readonly id: number }
  | { readonly type: 'stream'; readonly count: number; readonly size: number };

/** A plain worker thread at the far end of one MessagePort: the baseline every host figure is compared with. */
export interface PortPeer {
  /** One postMessage to the worker and its answer back. */
  roundTrip(): Promise<void>;
  /** Asks for `count` strings of `size` characters, posted one message each; resolves with the characters received. */
  stream(count: number, size: number): Promise<number>;
  close(): Promise<void>;
}

/**
 * Starts the peer and waits until it answers once. The receiving side keeps every chunk it
 * gets, as a consumer of output does, so the baseline pays the same retention the host's
 * stream does.
 */
export async function startPortPeer(): Promise<PortPeer> {
  const { port1, port2 } = new MessageChannel();
  const worker = new Worker(new URL('./port-peer-worker.js', import.meta.url), {
    workerData: { port: port2 },
    transferList: [port2],
  });
  const peer = peerOver(
    (request) => port1.postMessage(request),
    (listener) => port1.on('message', listener),
    async () => {
      port1.close();
      await worker.terminate();
    },
  );
  await peer.roundTrip();
  return peer;
}

/**
 * The ping and stream protocol over any one channel to a peer: `send` posts a request, `listen`
 * hears every answer (a chunk, or null at a stream's end), `close` ends the peer.
 */
export function peerOver(
  send: (request: PeerRequest) => void,
  listen: (listener: (message: unknown) => void) => void,
  close: () => Promise<void>,
): PortPeer {
  let onMessage: (message: unknown) => void = () => {};
  listen((message) => onMessage(message));
  let nextId = 1;
  return {
    roundTrip: () =>
      new Promise<void>((resolve) => {
        onMessage = () => resolve();
        send({ type: 'ping', id: nextId++ });
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
        send({ type: 'stream', count, size });
      }),
    close,
  };
}
