import { discover } from '../discovery/discover.js';
import type { Host, HostOptions } from '../model/host-types.js';
import { bootHost, bootProcessHost, prepareEngineStart } from './boot-host.js';

/**
 * Discovers the installed leaves and boots the isolating host over them: the one call an
 * embedding service makes. `isolation` picks the tier (docs/isolation.md): `'process'`, the
 * default, runs the leaves' threads in an engine process of the host's own; `'thread'` in this
 * process. Discovery failures (a malformed declaration, a collision, a broken hook) reject
 * with the discovery error; boot failures with `boot-failed`.
 */
export async function createHost(options: HostOptions = {}): Promise<Host> {
  const { cwd, packageDirs, env, hookTimeoutMs, tags, onInvalidLeaf } = options;
  const processTier = (options.isolation ?? 'process') === 'process';
  // What the engines' command needs to know of the machine is learned while discovery reads.
  const [discovery] = await Promise.all([
    discover({
      ...(cwd === undefined ? {} : { cwd }),
      ...(packageDirs === undefined ? {} : { packageDirs }),
      ...(env === undefined ? {} : { env }),
      ...(hookTimeoutMs === undefined ? {} : { hookTimeoutMs }),
      ...(tags === undefined ? {} : { tags }),
      ...(onInvalidLeaf === undefined ? {} : { onInvalidLeaf }),
    }),
    processTier ? prepareEngineStart() : undefined,
  ]);
  return processTier ? bootProcessHost(discovery, options) : bootHost(discovery, options);
}
