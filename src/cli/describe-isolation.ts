import type { Isolation } from '../model/host-types.js';

const MiB = 1024 * 1024;

/**
 * Which containment is in effect, never a silent fall back: one line for the tier, and in the
 * process tier one for the engine's sandbox layers, then one line per layer not in effect saying why.
 */
export function describeIsolation(isolation: Isolation): string {
  if (isolation.tier === 'thread') return 'isolation: thread tier (the leaves run in this process)';
  const yes = (held: boolean) => (held ? 'yes' : 'NO');
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
