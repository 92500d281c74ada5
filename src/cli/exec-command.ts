import { resolve } from 'node:path';
import type { ExecResult } from '../contracts/result.js';
import { discover } from '../discovery/discover.js';
import type { Host } from '../model/host-types.js';
import { EXIT, type CliIo, type Command } from './cli-io.js';
import { createChannelPrinter } from './channel-printer.js';
import { formatProblem } from './format-problem.js';
import { parseFlags, parseIsolation, parseMs } from './parse-flags.js';

const USAGE = `Usage: plurnk-execs exec <tag> [body] [--target <t>] [--cwd <dir>] [--timeout <ms>] [--isolation process|thread] [--stats]

Runs one EXEC through the isolating host and streams its channels as they arrive: stdout to
stdout, stderr to stderr, any other channel to stdout with each line labelled. Then prints the
status line (and the Problem, if any) on stderr. A body of "-" is read from standard input.

  --target <t>     the EXEC target (a path, a program, an identifier — per the runtime)
  --cwd <dir>      working directory of the run (default: the current directory)
  --timeout <ms>   deadline of the run; past it the run settles 504
  --isolation <t>  process (default): the leaf's thread lives in an engine process of the
                   host's own; thread: in this process (docs/isolation.md)
  --stats          after the run, print the host's snapshot (host.stats(): runs, latency,
                   threads, breakers, engines) as JSON on stderr

Exit code: 0 on success; the subprocess exit code when there is one; 130 when cancelled;
1 for any other failure. Ctrl-C cancels the run (SIGHUP to its process group); a second
Ctrl-C closes the host, which kills what is left.
`;

/** `plurnk-execs exec`. */
export const execCommand: Command = {
  name: 'exec',
  summary: 'run one EXEC through the host and stream its output',
  usage: USAGE,
  async run(argv: string[], io: CliIo): Promise<number> {
    const { values, positionals } = parseFlags(
      'exec',
      argv,
      {
        target: { type: 'string', short: 't' },
        cwd: { type: 'string' },
        timeout: { type: 'string' },
        isolation: { type: 'string' },
        stats: { type: 'boolean' },
      },
      { names: ['tag', 'body'], required: 1 },
    );
    if (values.help) return (void io.stdout.write(USAGE), EXIT.ok);
    const [runtime = '', rawBody = ''] = positionals;
    const timeoutMs = parseMs('exec', '--timeout', values.timeout as string | undefined);
    const body = rawBody === '-' ? await io.readStdin() : rawBody;

    const isolation = parseIsolation('exec', values.isolation as string | undefined);
    const host = await bootFor(runtime, io.cwd, isolation);
    const controller = new AbortController();
    const stopInterrupts = trapInterrupts(io, controller, host);
    const printer = createChannelPrinter(io);
    const started = performance.now();
    try {
      const outcome = await host.exec({
        runtime,
        body,
        target: (values.target as string | undefined) ?? null,
        cwd: resolve(io.cwd, (values.cwd as string | undefined) ?? '.'),
        signal: controller.signal,
        ...(timeoutMs === undefined ? {} : { timeoutMs }),
        sinks: { write: (channel, chunk) => printer.write(channel, chunk) },
      });
      printer.end();
      const ms = Math.round(performance.now() - started);
      io.stderr.write(
        `── ${runtime} ${outcome.result.status}${outcome.effect ? ` · effect ${outcome.effect}` : ''} · ${ms} ms\n`,
      );
      if (outcome.result.problem) io.stderr.write(formatProblem(outcome.result.problem));
      for (const { kind, detail } of outcome.violations) io.stderr.write(`contract violation (${kind}): ${detail}\n`);
      if (values.stats === true) io.stderr.write(`${JSON.stringify(await host.stats(), null, 2)}\n`);
      return exitCodeOf(outcome.result);
    } finally {
      stopInterrupts();
      await host.close();
    }
  },
};

/**
 * A host that boots only the tag it will run: one package's thread started and probed, where
 * booting every installed tag took ~3 s of a one-line EXEC's wall time. A tag discovery did not
 * register (unknown, or disabled by policy) boots the whole discovery instead, so the refusal
 * lists the runtimes that are available.
 */
async function bootFor(runtime: string, cwd: string, isolation: 'process' | 'thread'): Promise<Host> {
  // The host's modules load, and the engine's start learns the machine, beside discovery
  // rather than after it (the modules come from exec's bundle: run-cli.ts).
  const [discovery, { bootHost, bootProcessHost }] = await Promise.all([
    discover({ cwd }),
    import('../host/boot-host.js').then(async (boot) => {
      if (isolation === 'process') await boot.prepareEngineStart();
      return boot;
    }),
  ]);
  const entry = discovery.registry.get(runtime);
  const served = entry === undefined ? discovery : { ...discovery, registry: new Map([[runtime, entry]]) };
  return isolation === 'process' ? bootProcessHost(served, { isolation }) : bootHost(served, { isolation });
}

/** 0 on success, the child's own exit code when it has one, 130 for a cancel, 1 otherwise. */
export function exitCodeOf(result: ExecResult): number {
  if (result.status < 400) return EXIT.ok;
  if (result.status === 499) return EXIT.interrupted;
  if (result.exitCode !== undefined && result.exitCode > 0) return Math.min(result.exitCode, 255);
  return EXIT.failed;
}

/** First Ctrl-C cancels the run (SIGHUP semantics); the second closes the host, killing what is left. */
function trapInterrupts(io: CliIo, controller: AbortController, host: Host): () => void {
  const onInterrupt = () => {
    if (!controller.signal.aborted) {
      io.stderr.write('\ncancelling (Ctrl-C again to kill)…\n');
      controller.abort();
    } else {
      io.stderr.write('\nkilling…\n');
      void host.close();
    }
  };
  process.on('SIGINT', onInterrupt);
  return () => process.off('SIGINT', onInterrupt);
}
