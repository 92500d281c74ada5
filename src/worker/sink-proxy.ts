import type { MessagePort } from 'node:worker_threads';
import { wrap, type Endpoint } from 'comlink';
import type { ExecArgs } from '../contracts/exec-args.js';
import type { ClientInteractionResolution } from '../contracts/notice.js';
import type { SinkApi } from '../contracts/protocol.js';

/** The sink half of a run's ExecArgs, proxied to the host, plus the barrier the worker awaits. */
export interface ProxiedSinks {
  readonly sinks: Pick<ExecArgs, 'write' | 'setState' | 'emit' | 'interact' | 'entry'>;
  /** Resolves once the host has applied every sink call made before it. */
  flush(): Promise<void>;
  /** Closes the worker's end of the sink port. */
  close(): void;
}

const ignore = () => {};

/**
 * Builds a run's sinks as comlink proxies over `port` (a Node MessagePort speaks comlink's
 * Endpoint directly). `write`, `setState` and `emit` stay synchronous for the leaf: their
 * calls are posted in order and the host applies them in order, so only `flush` is awaited.
 * `entry` exists only when the embedding service offers it.
 */
export function proxySinks(port: MessagePort, hasEntry: boolean): ProxiedSinks {
  const remote = wrap<SinkApi>(port as unknown as Endpoint);
  const sinks: ProxiedSinks['sinks'] = {
    write: (channel, chunk, mimetype) => void remote.write(channel, chunk, mimetype).catch(ignore),
    setState: (channel, state) => void remote.setState(channel, state).catch(ignore),
    emit: (notice) => void remote.emit(notice).catch(ignore),
    interact: (request) => remote.interact(request) as Promise<ClientInteractionResolution>,
    ...(hasEntry ? { entry: (path: string, content: string | null, opts: unknown) => remote.entry(path, content, opts) } : {}),
  };
  return {
    sinks,
    flush: () => remote.flush(),
    close: () => port.close(),
  };
}
