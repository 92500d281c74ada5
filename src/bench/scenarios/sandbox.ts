import { bootProcessHost } from '../../host/boot-host.js';
import type { Discovery } from '../../contracts/registry.js';
import type { Host, Isolation } from '../../model/host-types.js';
import { summarize, type BenchContext, type BenchRow, type ScenarioReport, target } from '../bench-report.js';
import { sampleInterleaved } from '../sample.js';
import { execTrue, shDiscovery } from './subprocess.js';

/** The engine's bench aid (engine/sandbox/engine-sandbox.ts): `off` starts engines as before the sandbox. */
const SANDBOX_OFF = 'PLURNK_EXECS_ENGINE_SANDBOX';

/**
 * Scenario 11 (issue 25). What the engine's sandbox costs: a process-tier boot over the `sh`
 * leaf, and `sh true` end to end under the default `'each-run'` recycling, each with the sandbox
 * against without it (`PLURNK_EXECS_ENGINE_SANDBOX=off`), measured in the same run — boots one
 * after the other, runs in interleaved rounds. The target is 1.1× or less for both.
 */
export async function benchSandbox(context: BenchContext): Promise<ScenarioReport> {
  const { discovery, source } = await shDiscovery(context.cwd);
  const bootRounds = context.quick ? 2 : 10;
  context.progress(`sandbox: ${bootRounds} boots with and without the sandbox`);
  const boots = { with: [] as number[], without: [] as number[] };
  let layers: Isolation | undefined;
  for (let round = 0; round < bootRounds; round++) {
    for (const arm of ['with', 'without'] as const) {
      const started = performance.now();
      const host = await boot(discovery, arm);
      boots[arm].push(performance.now() - started);
      if (arm === 'with') layers ??= host.isolation();
      await host.close();
    }
  }
  const hosts = { with: await boot(discovery, 'with'), without: await boot(discovery, 'without') };
  const plan = context.quick ? { rounds: 3, perRound: 10, warmup: 5 } : { rounds: 10, perRound: 20, warmup: 10 };
  try {
    context.progress(`sandbox: ${plan.rounds} rounds × ${plan.perRound} sh true runs per arm`);
    const runs = await sampleInterleaved(
      { with: () => execTrue(hosts.with), without: () => execTrue(hosts.without) },
      plan,
    );
    const row = (name: string, samples: { with: number[]; without: number[] }): BenchRow => {
      const subject = summarize(samples.with);
      const baseline = summarize(samples.without);
      const ratio = subject.median / baseline.median;
      return {
        name,
        unit: 'ms',
        subject,
        baseline: { name: 'no sandbox', stat: baseline },
        ratio,
        target: target(ratio, '<=', 1.1),
      };
    };
    const { capabilities, fsView, cgroup, network } = layers ?? {};
    return {
      name: 'sandbox',
      rows: [row(`process-tier boot (sh)`, boots), row(`sh 'true' via host, 'each-run'`, runs)],
      notes: [
        source,
        `Subject: the engine in its sandbox (capabilities ${capabilities}, filesystem ${fsView}, cgroup ${cgroup ? 'yes' : 'none'}, network ${network}); baseline: ${SANDBOX_OFF}=off, same run.`,
      ],
    };
  } finally {
    await Promise.all(Object.values(hosts).map((host) => host.close()));
  }
}

/** A process-tier host with or without the sandbox: the variable is read as each engine starts, so it stays set until the boot is done. */
async function boot(discovery: Discovery, arm: 'with' | 'without'): Promise<Host> {
  if (arm === 'with') return bootProcessHost(discovery);
  process.env[SANDBOX_OFF] = 'off';
  try {
    return await bootProcessHost(discovery);
  } finally {
    delete process.env[SANDBOX_OFF];
  }
}
