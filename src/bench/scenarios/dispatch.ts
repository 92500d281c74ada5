import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import { bootHost, bootProcessHost } from '../../host/boot-host.js';
import type { ExecArgs } from '../../contracts/exec-args.js';
import type { BaseExecutor } from '../../author/base-executor.js';
import { summarize, target, type BenchContext, type BenchRow, type ScenarioReport } from '../bench-report.js';
import { discoverFixtures } from '../bench-leaves.js';
import { startIpcPeer } from '../ipc-peer.js';
import { startPortPeer } from '../port-peer.js';
import { sampleInterleaved, toMicros } from '../sample.js';

const PISCINA_ECHO = fileURLToPath(new URL('../piscina-echo.js', import.meta.url));

/**
 * Scenario 2. A no-op executor's EXEC through a warm thread (`recycle: 'never'`) against the
 * same executor's `run()` called in this process, next to a bare MessagePort round trip to a
 * plain worker thread measured in the same rounds. A bare piscina task (the floor of any
 * dispatch built on piscina) and `host.effect()` (one host task) are shown for scale, and so is
 * an EXEC that writes one line (what a run's first sink call adds: its message, and no flush
 * barrier while a run posted a few).
 */
export async function benchDispatch(context: BenchContext): Promise<ScenarioReport> {
  const discovery = await discoverFixtures('exec-noop', 'exec-streams');
  const entry = discovery.registry.get('noop')!;
  const host = await bootHost(discovery, { recycle: 'never' });
  const engine = await bootProcessHost(discovery, { recycle: 'never' });
  const peer = await startPortPeer();
  const ipc = await startIpcPeer();
  // The floor of any dispatch built on piscina tasks: the same pool settings as the host's threads.
  const pool = new Piscina({
    filename: PISCINA_ECHO,
    minThreads: 1,
    maxThreads: 1,
    idleTimeout: Infinity,
    atomics: 'disabled',
    recordTiming: false,
  });
  await pool.run(0);
  const executor = await constructInProcess(entry.entryUrl);
  const args = noopArgs();
  const plan = context.quick ? { rounds: 3, perRound: 100, warmup: 100 } : { rounds: 10, perRound: 300, warmup: 300 };
  try {
    context.progress(`dispatch: ${plan.rounds} rounds × ${plan.perRound} calls per arm`);
    const samples = await sampleInterleaved(
      {
        port: () => peer.roundTrip(),
        piscina: () => pool.run(0),
        inProcess: () => executor.run(args),
        effect: () => host.effect('noop', null),
        exec: () => host.exec({ runtime: 'noop', body: 'x' }),
        execGiven: () => host.exec({ runtime: 'noop', body: 'x', effect: 'pure' }),
        ipc: () => ipc.roundTrip(),
        processExec: () => engine.exec({ runtime: 'noop', body: 'x', effect: 'pure' }),
        processExecEffect: () => engine.exec({ runtime: 'noop', body: 'x' }),
        execLine: () => host.exec(ONE_LINE),
        processExecLine: () => engine.exec(ONE_LINE),
      },
      plan,
    );
    const port = summarize(toMicros(samples.port));
    const inProcess = summarize(toMicros(samples.inProcess));
    const piscina = summarize(toMicros(samples.piscina));
    const effect = summarize(toMicros(samples.effect));
    const exec = summarize(toMicros(samples.exec));
    const execGiven = summarize(toMicros(samples.execGiven));
    const ipcTrip = summarize(toMicros(samples.ipc));
    const processExec = summarize(toMicros(samples.processExec));
    const processExecEffect = summarize(toMicros(samples.processExecEffect));
    const execLine = summarize(toMicros(samples.execLine));
    const processExecLine = summarize(toMicros(samples.processExecLine));
    const overhead = (exec.median - inProcess.median) / port.median;
    const givenOverhead = (execGiven.median - inProcess.median) / port.median;
    const floor = { name: 'bare IPC + port round trip', stat: summarize([ipcTrip.median + port.median]) };
    const processOverhead = (processExec.median - inProcess.median) / (ipcTrip.median + port.median);
    const processEffectOverhead = (processExecEffect.median - inProcess.median) / (ipcTrip.median + port.median);
    const bare = { name: 'bare port round trip', stat: port };
    const rows: BenchRow[] = [
      { name: 'bare MessagePort round trip (plain worker)', unit: 'µs', subject: port },
      { name: 'no-op run() in-process', unit: 'µs', subject: inProcess },
      {
        name: 'piscina task round trip (1-thread pool, atomics off)',
        unit: 'µs',
        subject: piscina,
        baseline: bare,
        ratio: piscina.median / port.median,
      },
      {
        name: 'host.effect() (one task, warm thread)',
        unit: 'µs',
        subject: effect,
        baseline: bare,
        ratio: effect.median / port.median,
      },
      {
        name: 'host.exec() no-op (warm thread)',
        unit: 'µs',
        subject: exec,
        baseline: bare,
        ratio: overhead,
        ratioOf: '(exec − in-process) ÷ port round trip',
        target: target(overhead, '<=', 2),
      },
      {
        name: 'host.exec() no-op, effect passed by the caller (warm thread)',
        unit: 'µs',
        subject: execGiven,
        baseline: bare,
        ratio: givenOverhead,
        ratioOf: '(exec − in-process) ÷ port round trip',
        target: target(givenOverhead, '<=', 2),
      },
      {
        name: 'host.exec() writing one 16-byte line, effect passed (warm thread)',
        unit: 'µs',
        subject: execLine,
        baseline: { name: 'the no-op, effect passed', stat: execGiven },
        ratio: execLine.median / execGiven.median,
      },
      { name: 'bare IPC round trip (plain child process)', unit: 'µs', subject: ipcTrip },
      {
        name: 'process tier: host.exec() no-op (warm thread)',
        unit: 'µs',
        subject: processExecEffect,
        baseline: floor,
        ratio: processEffectOverhead,
        ratioOf: '(exec − in-process) ÷ (IPC + port round trip)',
        target: target(processEffectOverhead, '<=', 3),
      },
      {
        name: 'process tier: host.exec() no-op, effect passed (warm thread)',
        unit: 'µs',
        subject: processExec,
        baseline: floor,
        ratio: processOverhead,
        ratioOf: '(exec − in-process) ÷ (IPC + port round trip)',
        target: target(processOverhead, '<=', 3),
      },
      {
        name: 'process tier: host.exec() writing one 16-byte line, effect passed (warm thread)',
        unit: 'µs',
        subject: processExecLine,
        baseline: { name: 'the no-op, effect passed', stat: processExec },
        ratio: processExecLine.median / processExec.median,
      },
    ];
    return {
      name: 'dispatch',
      rows,
      notes: [
        "host.exec() without an effect calls effect() once in the thread first, as the contract asks, in the run's own task; a service that took the effect at admission passes it (`effect`). Targets (issue 28): thread tier ≤ 2× a port round trip, process tier ≤ 3× the floor (a pipe round trip to a plain child — Node's IPC channel, `serialization: 'advanced'` — plus a port round trip).",
      ],
    };
  } finally {
    await Promise.all([host.close(), engine.close(), peer.close(), ipc.close(), pool.destroy()]);
  }
}

/** The exec-streams fixture's run of one 16-character write (fixtures/bench/exec-streams). */
const ONE_LINE = { runtime: 'streams', body: '1x16', effect: 'pure' } as const;

async function constructInProcess(entryUrl: string): Promise<BaseExecutor> {
  const module = (await import(entryUrl)) as {
    default: new (options: { runtime: string; glyph: string }) => BaseExecutor;
  };
  return new module.default({ runtime: 'noop', glyph: '' });
}

/** ExecArgs whose sinks do nothing: the in-process call pays no stream. */
function noopArgs(): ExecArgs {
  const ignore = () => {};
  return {
    runtime: 'noop',
    body: 'x',
    cwd: null,
    target: null,
    signal: new AbortController().signal,
    write: ignore,
    setState: ignore,
    emit: ignore,
    interact: async () => ({ status: 'cancelled' }),
  };
}
