import { spawn } from 'node:child_process';
import type { Discovery } from '../../contracts/registry.js';
import { bootHost, bootProcessHost } from '../../host/boot-host.js';
import { bootBenchHost } from '../boot-bench-host.js';
import type { Host } from '../../model/host-types.js';
import { summarize, target, type BenchContext, type BenchRow, type ScenarioReport } from '../bench-report.js';
import { discoverFixtures, discoverLeaves } from '../bench-leaves.js';
import { sampleInterleaved } from '../sample.js';

/**
 * Scenario 4. `sh` running `true` end to end through the host — in a warm reused thread in
 * both tiers (issue 28: at most 1.3× the bare spawn), and under the default `'each-run'`
 * recycling in the run's tier — against a bare `child_process.spawn` of `sh -c true` in this
 * process with the same options SubprocessExecutor uses.
 */
export async function benchSubprocess(context: BenchContext): Promise<ScenarioReport> {
  const { discovery, source } = await shDiscovery(context.cwd);
  const hosts: Record<'thread' | 'process' | 'each-run', Host> = {
    thread: await bootHost(discovery, { recycle: 'never' }),
    process: await bootProcessHost(discovery, { recycle: 'never' }),
    'each-run': await bootBenchHost(context, discovery, { recycle: 'each-run' }),
  };
  const plan = context.quick ? { rounds: 3, perRound: 10, warmup: 5 } : { rounds: 10, perRound: 20, warmup: 10 };
  try {
    context.progress(`subprocess: ${plan.rounds} rounds × ${plan.perRound} runs per arm`);
    const samples = await sampleInterleaved(
      {
        spawn: spawnTrue,
        thread: () => execTrue(hosts.thread),
        process: () => execTrue(hosts.process),
        eachRun: () => execTrue(hosts['each-run']),
      },
      plan,
    );
    const bare = { name: 'bare spawn of sh -c true', stat: summarize(samples.spawn) };
    const row = (name: string, ms: number[], bound?: number): BenchRow => {
      const stat = summarize(ms);
      const ratio = stat.median / bare.stat.median;
      return {
        name,
        unit: 'ms',
        subject: stat,
        baseline: bare,
        ratio,
        ...(bound === undefined ? {} : { target: target(ratio, '<=', bound) }),
      };
    };
    return {
      name: 'subprocess',
      rows: [
        row(`thread tier: sh 'true' via host, warm thread ('never')`, samples.thread, 1.3),
        row(`process tier: sh 'true' via host, warm thread ('never')`, samples.process, 1.3),
        row(`${context.isolation} tier: sh 'true' via host, 'each-run', back to back`, samples.eachRun),
      ],
      notes: [source, 'Both host figures include effect(), process-group reporting and the reap check after the run.'],
    };
  } finally {
    await Promise.all(Object.values(hosts).map((host) => host.close()));
  }
}

/** The installed `sh` leaf when there is one, else the fixture's; a registry of that one tag. */
export async function shDiscovery(cwd: string): Promise<{ discovery: Discovery; source: string }> {
  const found = await discoverLeaves(cwd);
  let discovery = found.discovery;
  let source = `sh from ${discovery.registry.get('sh')?.packageName ?? '?'} (${found.source})`;
  if (!discovery.registry.has('sh')) {
    discovery = await discoverFixtures('exec-interpreters');
    source = 'no installed leaf declares sh: the exec-interpreters fixture (SubprocessExecutor as shipped) stands in';
  }
  return { discovery: { ...discovery, registry: new Map([['sh', discovery.registry.get('sh')!]]) }, source };
}

/** One `sh true` through `host`, end to end; throws unless it answered 200. */
export async function execTrue(host: Host): Promise<void> {
  const outcome = await host.exec({ runtime: 'sh', body: 'true' });
  if (outcome.result.status !== 200) throw new Error(`subprocess: sh true failed: ${JSON.stringify(outcome.result)}`);
}

function spawnTrue(): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('sh', ['-c', 'true'], { detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.resume();
    child.stderr.resume();
    child.once('error', reject);
    child.once('close', (code) => (code === 0 ? resolve() : reject(new Error(`sh -c true exited ${code}`))));
  });
}
