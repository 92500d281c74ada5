import type { EngineIsolation, Isolation } from '../model/host-types.js';

/**
 * `host.isolation()` of the process tier: one entry per engine, and the flat summary a service
 * read before there were several — a containment holds only when it holds in every engine
 * (none running, nothing holds), and the reaped counts add up.
 */
export function summarizeIsolation(engines: EngineIsolation[]): Isolation {
  const everywhere = (held: (engine: EngineIsolation) => boolean) => engines.length > 0 && engines.every(held);
  const counted = engines.flatMap((engine) => (engine.zombiesReaped === undefined ? [] : [engine.zombiesReaped]));
  return {
    tier: 'process',
    pidNamespace: everywhere((engine) => engine.pidNamespace),
    permissionModel: everywhere((engine) => engine.permissionModel),
    ...(counted.length === 0 ? {} : { zombiesReaped: counted.reduce((sum, count) => sum + count, 0) }),
    engines,
  };
}
