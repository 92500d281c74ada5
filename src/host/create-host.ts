import { discover } from '../discovery/discover.js';
import { bootHost } from './boot-host.js';
import type { Host, HostOptions } from './host-types.js';

/**
 * Discovers the installed leaves and boots the isolating host over them: the one call an
 * embedding service makes. Discovery failures (a malformed declaration, a collision, a
 * broken hook) reject with the discovery error; boot failures with `boot-failed`.
 */
export async function createHost(options: HostOptions = {}): Promise<Host> {
  const { cwd, packageDirs, env, hookTimeoutMs, tags, onInvalidLeaf } = options;
  const discovery = await discover({
    ...(cwd === undefined ? {} : { cwd }),
    ...(packageDirs === undefined ? {} : { packageDirs }),
    ...(env === undefined ? {} : { env }),
    ...(hookTimeoutMs === undefined ? {} : { hookTimeoutMs }),
    ...(tags === undefined ? {} : { tags }),
    ...(onInvalidLeaf === undefined ? {} : { onInvalidLeaf }),
  });
  return bootHost(discovery, options);
}
