import { detectPidNamespace } from '../../src/engine/engine-command.js';
import type { HostOptions } from '../../src/host/index.js';

/**
 * The isolation tier the zoo runs in: vitest's `zoo-process` project sets
 * `PLURNK_EXECS_TEST_ISOLATION=process` and runs the same files again, so every zoo fixture is
 * judged in both tiers with the same verdicts (a matrix, not a copy).
 */
export const TIER: NonNullable<HostOptions['isolation']> =
  process.env.PLURNK_EXECS_TEST_ISOLATION === 'process' ? 'process' : 'thread';

/** The createHost options that select {@link TIER}. */
export function tierOptions(): Pick<HostOptions, 'isolation'> {
  return { isolation: TIER };
}

/**
 * True when the tier kills what a run left behind at the run's end, whatever else is in flight:
 * the process tier's engine, as the init of its own PID namespace. Where no namespace can be had it does not, and
 * the zoo expects the thread tier's documented limits.
 */
export const SWEEPS_LEFTOVERS = TIER === 'process' && detectPidNamespace() !== null;
