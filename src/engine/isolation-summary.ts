import type { EngineIsolation, Isolation, SandboxGaps, SandboxLayerFields } from '../model/containment.js';

/**
 * `host.isolation()` of the process tier: one entry per engine, and the flat summary a service
 * read before there were several — a containment or sandbox layer holds only when it holds in
 * every engine (none running, nothing holds), and the reaped counts add up.
 */
export function summarizeIsolation(engines: EngineIsolation[]): Isolation {
  const everywhere = (held: (engine: EngineIsolation) => boolean) => engines.length > 0 && engines.every(held);
  const counted = engines.flatMap((engine) => (engine.zombiesReaped === undefined ? [] : [engine.zombiesReaped]));
  return {
    tier: 'process',
    pidNamespace: everywhere((engine) => engine.pidNamespace),
    permissionModel: everywhere((engine) => engine.permissionModel),
    ...(counted.length === 0 ? {} : { zombiesReaped: counted.reduce((sum, count) => sum + count, 0) }),
    ...summarizeSandbox(engines),
    engines,
  };
}

/**
 * The sandbox layers of every engine as one: each layer the weakest any engine has (`'inherited'`
 * capabilities, an `'open'` view, no cgroup, the `'shared'` network), and for each layer that
 * does not hold somewhere the first engine's reason. Nothing where no engine reported its layers.
 */
function summarizeSandbox(engines: EngineIsolation[]): SandboxLayerFields {
  const layered = engines.filter((engine) => engine.capabilities !== undefined);
  if (layered.length === 0) return {};
  const all = <T>(pick: (engine: EngineIsolation) => T, held: T, otherwise: T): T =>
    layered.every((engine) => pick(engine) === held) ? held : otherwise;
  const cgroups = layered.map((engine) => engine.cgroup ?? null);
  const missing: SandboxGaps = {};
  for (const engine of layered)
    for (const [layer, why] of Object.entries(engine.missing ?? {}) as [keyof SandboxGaps, string][])
      missing[layer] ??= why;
  return {
    capabilities: all((engine) => engine.capabilities, 'none', 'inherited'),
    fsView: all((engine) => engine.fsView, 'read-only', 'open'),
    cgroup: cgroups.includes(null) ? null : cgroups[0]!,
    network: all((engine) => engine.network, 'own', 'shared'),
    ...(Object.keys(missing).length === 0 ? {} : { missing }),
  };
}
