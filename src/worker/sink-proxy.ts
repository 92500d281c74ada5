import type { MessagePort } from 'node:worker_threads';
import { wrap, type Endpoint, type Remote } from 'comlink';
import type { ExecArgs } from '../contracts/exec-args.js';
import type { ClientInteractionResolution } from '../contracts/notice.js';
import type { SinkApi, SinkCall, SinkWrite } from '../contracts/protocol.js';

/** The sink half of a run's ExecArgs, proxied to the host, plus the barrier the worker awaits. */
export interface ProxiedSinks {
  readonly sinks: Pick<ExecArgs, 'write' | 'setState' | 'emit' | 'interact' | 'entry'>;
  /** Resolves once the host has applied every sink call made before it. */
  flush(): Promise<void>;
  /** Closes the worker's end of the sink port. */
  close(): void;
}

/**
 * Builds a run's sinks over `port` (a Node MessagePort speaks comlink's Endpoint directly).
 * `write`, `setState` and `emit` stay synchronous for the leaf and post one bare
 * {@link SinkCall} each (a write to the channel of the last plain write: a {@link SinkWrite}),
 * at once — never deferred, so what a leaf wrote before it blocks or dies has already left
 * the thread — and without comlink's call id and answer, which cost more than the write itself. `interact`, `entry` and `flush` are comlink calls on the same
 * port, so the host applies everything in the leaf's order. `entry` exists only when the
 * embedding service offers it.
 */
export function proxySinks(port: MessagePort, hasEntry: boolean): ProxiedSinks {
  // comlink is wrapped on first use: a run that only writes or does nothing never needs it.
  let proxy: Remote<SinkApi> | undefined;
  const remote = () => (proxy ??= wrap<SinkApi>(port as unknown as Endpoint));
  // Whether anything reached the host since the last flush: a run that wrote nothing needs no barrier.
  let posted = false;
  const post = (call: SinkCall | SinkWrite) => {
    posted = true;
    try {
      port.postMessage(call);
    } catch {
      // An argument that cannot be cloned is dropped, as a comlink call's rejection was.
    }
  };
  // The channel a bare-string write goes to (see SinkWrite); the host keeps the same.
  let current: string | undefined;
  const sinks: ProxiedSinks['sinks'] = {
    write: (channel, chunk, mimetype) => {
      const plain = typeof channel === 'string' && typeof chunk === 'string' && mimetype === undefined;
      if (plain && channel === current) return post(chunk);
      post(['write', channel, chunk, mimetype]);
      if (plain) current = channel;
    },
    setState: (channel, state) => post(['setState', channel, state]),
    emit: (notice) => post(['emit', notice]),
    interact: (request) => {
      posted = true;
      return remote().interact(request) as Promise<ClientInteractionResolution>;
    },
    ...(hasEntry
      ? {
          entry: (path: string, content: string | null, opts: unknown) => {
            posted = true;
            return remote().entry(path, content, opts);
          },
        }
      : {}),
  };
  return {
    sinks,
    async flush() {
      if (!posted) return;
      posted = false;
      await remote().flush();
    },
    close: () => port.close(),
  };
}
