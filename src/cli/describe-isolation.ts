import type { Isolation } from '../model/host-types.js';

/** One line saying which containment is in effect: never a silent fall back. */
export function describeIsolation(isolation: Isolation): string {
  if (isolation.tier === 'thread') return 'isolation: thread tier (the leaves run in this process)';
  const yes = (held: boolean) => (held ? 'yes' : 'NO');
  return `isolation: process tier · PID namespace ${yes(isolation.pidNamespace)} · permission model ${yes(isolation.permissionModel)}`;
}
