import { bootHost, bootProcessHost } from '../host/boot-host.js';
import type { Discovery } from '../contracts/registry.js';
import type { Host, HostOptions } from '../model/host-types.js';
import type { BenchContext } from './bench-report.js';

/**
 * Boots the host a scenario measures in the tier the run asked for (`bench --isolation`):
 * the figures describe the host an embedding service gets, so the process tier by default.
 */
export function bootBenchHost(context: BenchContext, discovery: Discovery, options: HostOptions = {}): Promise<Host> {
  return context.isolation === 'process' ? bootProcessHost(discovery, options) : bootHost(discovery, options);
}
