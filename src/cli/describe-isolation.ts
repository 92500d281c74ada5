import type { EngineIsolation, Isolation } from '../model/host-types.js';

const yes = (held: boolean) => (held ? 'yes' : 'NO');

/** One line saying which containment is in effect: never a silent fall back. */
export function describeIsolation(isolation: Isolation): string {
  if (isolation.tier === 'thread') return 'isolation: thread tier (the leaves run in this process)';
  return `isolation: process tier · PID namespace ${yes(isolation.pidNamespace)} · permission model ${yes(isolation.permissionModel)}`;
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
