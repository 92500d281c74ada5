import type { EngineIsolation, Isolation } from '../model/host-types.js';

const yes = (held: boolean) => (held ? 'yes' : 'NO');

const MiB = 1024 * 1024;

/**
 * Which containment is in effect, never a silent fall back: one line for the tier, and in the
 * process tier one for its engines' sandbox layers (the weakest any engine has), then one line
 * per layer not in effect saying why.
 */
export function describeIsolation(isolation: Isolation): string {
  if (isolation.tier === 'thread') return 'isolation: thread tier (the leaves run in this process)';
  const lines = [
    `isolation: process tier · PID namespace ${yes(isolation.pidNamespace)} · permission model ${yes(isolation.permissionModel)}`,
  ];
  if (isolation.capabilities !== undefined) {
    const { cgroup } = isolation;
    const bounds = cgroup ? `${Math.round(cgroup.memoryBytes / MiB)} MiB, ${cgroup.pids} pids` : 'NONE';
    lines.push(
      `sandbox: capabilities ${isolation.capabilities} · filesystem ${isolation.fsView} · cgroup ${bounds} · network ${isolation.network}`,
    );
    for (const [layer, why] of Object.entries(isolation.missing ?? {})) lines.push(`  ${layer}: ${why}`);
  }
  return lines.join('\n');
}

/** One line per engine of the process tier (none in the thread tier): its packages, pid and containment. */
export function describeEngines(isolation: Isolation): string[] {
  return (isolation.engines ?? []).map((engine) => `  ${describeEngine(engine)}`);
}

function describeEngine(engine: EngineIsolation): string {
  const tags = engine.tags.length === 1 ? `tag ${engine.tags[0]}` : `${engine.tags.length} tags`;
  const reaped = engine.zombiesReaped === undefined ? '' : ` · reaped ${engine.zombiesReaped}`;
  return `engine of ${engine.packages.join(' + ')} (${tags}) · pid ${engine.pid ?? 'restarting'} · PID namespace ${yes(engine.pidNamespace)} · permission model ${yes(engine.permissionModel)}${reaped}`;
}
