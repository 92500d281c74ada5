import { setTimeout as sleep } from 'node:timers/promises';

/** One measured arm: an async call whose wall time is one sample. */
export type Arm = () => Promise<unknown>;

/** How many samples to take, and how many unmeasured calls to make first. */
export interface SamplePlan {
  readonly rounds: number;
  readonly perRound: number;
  readonly warmup: number;
  /** Idle time between samples (lets background work such as a spare's start-up finish). */
  readonly gapMs?: number;
}

/**
 * Samples every arm in alternating rounds (A×n, B×n, A×n, …) rather than all of A then all of
 * B, so load from other processes on a shared machine falls on every arm alike. Returns the
 * wall time in ms of each measured call, per arm.
 */
export async function sampleInterleaved<K extends string>(
  arms: Record<K, Arm>,
  plan: SamplePlan,
): Promise<Record<K, number[]>> {
  const names = Object.keys(arms) as K[];
  const samples = Object.fromEntries(names.map((name) => [name, [] as number[]])) as Record<K, number[]>;
  for (const name of names) {
    for (let i = 0; i < plan.warmup; i++) await arms[name]();
  }
  for (let round = 0; round < plan.rounds; round++) {
    for (const name of names) {
      for (let i = 0; i < plan.perRound; i++) {
        if (plan.gapMs) await sleep(plan.gapMs);
        samples[name].push(await timeMs(arms[name]));
      }
    }
  }
  return samples;
}

/** Wall time of one call in ms. */
export async function timeMs(arm: Arm): Promise<number> {
  const start = performance.now();
  await arm();
  return performance.now() - start;
}

/** Converts ms samples to µs. */
export function toMicros(samples: readonly number[]): number[] {
  return samples.map((ms) => ms * 1000);
}
