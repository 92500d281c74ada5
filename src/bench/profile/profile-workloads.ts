import { bootHost, bootProcessHost } from '../../host/boot-host.js';
import type { Host } from '../../model/host-types.js';
import { discoverFixtures, discoverLeaves } from '../bench-leaves.js';

/** When the profiled part of a workload ran, in µs of the monotonic clock V8's profiler stamps samples with. */
export interface ProfileWindow {
  readonly from: number;
  readonly to: number;
}

/** One workload to profile: what it does, how many runs by default, and the windows its runs took. */
export interface ProfileWorkload {
  readonly summary: string;
  readonly runs: number;
  run(runs: number, cwd: string): Promise<ProfileWindow[]>;
}

/** The file in the profile directory where the child writes its windows. */
export const WINDOW_FILE = 'window.json';

/** Now, in µs of the clock `.cpuprofile` samples are stamped with (both are CLOCK_MONOTONIC). */
export function profileClock(): number {
  return Number(process.hrtime.bigint() / 1000n);
}

/**
 * What `npm run bench:profile` can profile: each is one row of issue 17's targets, done over
 * and over; only samples taken inside the returned windows count (start-up, warm-up, idle gaps and close
 * are left out).
 */
export const PROFILE_WORKLOADS = {
  exec: {
    summary: "no-op EXECs in a warm thread, effect passed (thread tier, 'never')",
    runs: 4000,
    run: (runs) => warmExecs(() => noopHost('thread'), runs, true),
  },
  'exec-effect': {
    summary: "no-op EXECs in a warm thread, effect() called (thread tier, 'never')",
    runs: 4000,
    run: (runs) => warmExecs(() => noopHost('thread'), runs, false),
  },
  'exec-process': {
    summary: "no-op EXECs in a warm thread of the engine, effect passed (process tier, 'never')",
    runs: 2000,
    run: (runs) => warmExecs(() => noopHost('process'), runs, true),
  },
  sh: {
    summary: "sh 'true' EXECs in a warm thread (thread tier, 'never'): a child process each",
    runs: 300,
    run: (runs) => shExecs('thread', runs),
  },
  'sh-process': {
    summary: "sh 'true' EXECs in a warm thread of the engine (process tier, 'never'): a child process each",
    runs: 300,
    run: (runs) => shExecs('process', runs),
  },
  'each-run': {
    summary: "back-to-back no-op EXECs under 'each-run' (thread tier): a thread started per run",
    runs: 60,
    run: async (runs) => {
      const host = await bootHost(await discoverFixtures('exec-noop'), { recycle: 'each-run' });
      try {
        const from = profileClock();
        for (let i = 0; i < runs; i++) await host.exec({ runtime: 'noop', body: 'x', effect: 'pure' });
        return [{ from, to: profileClock() }];
      } finally {
        await host.close();
      }
    },
  },
  recycle: {
    summary: "one no-op EXEC after each 500 ms idle under 'each-run' (thread tier): each in a fresh spare's first run",
    runs: 40,
    run: (runs) => idleThenExecs(runs, 500, 1),
  },
  burst: {
    summary:
      "bursts of 12 concurrent no-op EXECs under 'each-run', each after 2 s idle (thread tier), after one unmeasured",
    runs: 6,
    run: (runs) => idleThenExecs(runs, 2000, 12),
  },
  flood: {
    summary: "no-op EXECs of one tag, each beside another tag's 200,000 one-character writes (thread tier, 'never')",
    runs: 20,
    run: (runs) => besideFloods('thread', runs),
  },
  'flood-process': {
    summary: "no-op EXECs of one tag, each beside another tag's 200,000 one-character writes (process tier, 'never')",
    runs: 10,
    run: (runs) => besideFloods('process', runs),
  },
  boot: {
    summary: 'booting every installed leaf (thread tier), then closing',
    runs: 1,
    run: async (runs, cwd) => {
      const { discovery } = await discoverLeaves(cwd);
      const from = profileClock();
      for (let i = 0; i < runs; i++) await (await bootHost(discovery)).close();
      return [{ from, to: profileClock() }];
    },
  },
} satisfies Record<string, ProfileWorkload>;

async function noopHost(tier: 'thread' | 'process'): Promise<Host> {
  const discovery = await discoverFixtures('exec-noop');
  return tier === 'thread'
    ? bootHost(discovery, { recycle: 'never' })
    : bootProcessHost(discovery, { recycle: 'never' });
}

async function warmExecs(boot: () => Promise<Host>, runs: number, effectGiven: boolean): Promise<ProfileWindow[]> {
  const host = await boot();
  const request = { runtime: 'noop', body: 'x', ...(effectGiven ? { effect: 'pure' as const } : {}) };
  try {
    // Warm-up a tenth as long: the profile then holds mostly warm EXECs.
    for (let i = 0; i < Math.ceil(runs / 10); i++) await host.exec(request);
    const from = profileClock();
    for (let i = 0; i < runs; i++) await host.exec(request);
    return [{ from, to: profileClock() }];
  } finally {
    await host.close();
  }
}

/** `rounds` times: `idleMs` asleep, then `concurrent` no-op EXECs at once under 'each-run'; one window per round. */
async function idleThenExecs(rounds: number, idleMs: number, concurrent: number): Promise<ProfileWindow[]> {
  const host = await bootHost(await discoverFixtures('exec-noop'), { recycle: 'each-run' });
  const request = { runtime: 'noop', body: 'x', effect: 'pure' as const };
  const windows: ProfileWindow[] = [];
  try {
    await host.exec(request);
    // One burst unmeasured: the tag's spares grow to its demand, as in a service past its first burst.
    if (concurrent > 1) await Promise.all(Array.from({ length: concurrent }, () => host.exec(request)));
    for (let i = 0; i < rounds; i++) {
      await new Promise((resolve) => setTimeout(resolve, idleMs));
      const from = profileClock();
      await Promise.all(Array.from({ length: concurrent }, () => host.exec(request)));
      windows.push({ from, to: profileClock() });
    }
    return windows;
  } finally {
    await host.close();
  }
}

/**
 * `runs` times: another tag's run posts 200,000 one-character writes, and 30 ms into it a no-op
 * EXEC starts; one window per no-op EXEC, so the profile shows what its wait was spent on.
 */
async function besideFloods(tier: 'thread' | 'process', runs: number): Promise<ProfileWindow[]> {
  const discovery = await discoverFixtures('exec-noop', 'exec-streams');
  const host = await (tier === 'thread' ? bootHost : bootProcessHost)(discovery, { recycle: 'never' });
  const windows: ProfileWindow[] = [];
  try {
    for (let i = 0; i < 20; i++) await host.exec({ runtime: 'noop', body: 'x' });
    for (let i = 0; i < runs; i++) {
      const flood = host.exec({ runtime: 'streams', body: '200000x1' });
      await new Promise((resolve) => setTimeout(resolve, 30));
      const from = profileClock();
      await host.exec({ runtime: 'noop', body: 'x' });
      windows.push({ from, to: profileClock() });
      await flood;
    }
    return windows;
  } finally {
    await host.close();
  }
}

/** `runs` EXECs of `sh 'true'` (the fixture's SubprocessExecutor) in a warm thread, effect() called as a service would. */
async function shExecs(tier: 'thread' | 'process', runs: number): Promise<ProfileWindow[]> {
  const discovery = await discoverFixtures('exec-interpreters');
  const host = await (tier === 'thread' ? bootHost : bootProcessHost)(discovery, { recycle: 'never' });
  try {
    for (let i = 0; i < Math.ceil(runs / 10); i++) await host.exec({ runtime: 'sh', body: 'true' });
    const from = profileClock();
    for (let i = 0; i < runs; i++) await host.exec({ runtime: 'sh', body: 'true' });
    return [{ from, to: profileClock() }];
  } finally {
    await host.close();
  }
}
