/**
 * A seeded pseudo-random source (mulberry32): the same seed gives the same sequence, so a soak
 * that failed can be run again with the seed it printed. Not for anything but tests.
 */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The seed a soak runs with: `PLURNK_EXECS_SOAK_SEED` when set (to replay a failure), else a fresh one. */
export function soakSeed(): number {
  const given = process.env.PLURNK_EXECS_SOAK_SEED;
  if (given !== undefined && /^\d+$/.test(given)) return Number(given) >>> 0;
  return Math.floor(Math.random() * 2 ** 32);
}
