import { resolve } from 'node:path';
import { CHECK_RUN_TIMEOUT_MS, checkPackage } from '../check/check-package.js';
import { DEFAULT_GRACE_MS, DEFAULT_PROBE_TIMEOUT_MS } from '../model/defaults.js';
import { EXIT, type CliIo, type Command } from './cli-io.js';
import { parseFlags, parseIsolation, parseMs } from './parse-flags.js';
import { renderCheck } from './render-check.js';

const USAGE = `Usage: plurnk-execs check <package-dir> [--json] [--cwd <dir>] [--timeout <ms>] [--grace <ms>] [--probe-timeout <ms>]
                           [--isolation process|thread]

Loads the one executor leaf package in <package-dir> in isolation (its operator policy and
trust gate set aside) and reports, per tag: the manifest verdict with every validation error,
the probe verdict and latency, its declared example run through the isolating host, and the
contract checks — undeclared channels, console output, signal honoured within grace,
processes left behind, state retained across runs, result validity, other violations.

  --json                 print the report as JSON (schema plurnk-execs/check@1)
  --cwd <dir>            where the examples run (default: a new empty temporary directory);
                         an example whose file target is missing there is reported not run
  --timeout <ms>         deadline of each run of the example (default ${CHECK_RUN_TIMEOUT_MS})
  --grace <ms>           grace after an abort, and between SIGHUP and SIGKILL (default ${DEFAULT_GRACE_MS})
  --probe-timeout <ms>   how long the probe and a runtimes hook may take (default ${DEFAULT_PROBE_TIMEOUT_MS})
  --isolation <t>        process (default): the leaf's threads run in an engine process of the
                         host's own; thread: in this process (docs/isolation.md)

Exit code: 0 only when the package is clean; 1 otherwise; 2 for a bad command line.
`;

/** `plurnk-execs check`. */
export const checkCommand: Command = {
  name: 'check',
  summary: 'check one leaf package against the contract and report a verdict per tag',
  usage: USAGE,
  async run(argv: string[], io: CliIo): Promise<number> {
    const { values, positionals } = parseFlags(
      'check',
      argv,
      {
        json: { type: 'boolean' },
        cwd: { type: 'string' },
        timeout: { type: 'string' },
        grace: { type: 'string' },
        'probe-timeout': { type: 'string' },
        isolation: { type: 'string' },
      },
      { names: ['package-dir'], required: 1 },
    );
    if (values.help) return (void io.stdout.write(USAGE), EXIT.ok);
    const timeoutMs = parseMs('check', '--timeout', values.timeout as string | undefined);
    const graceMs = parseMs('check', '--grace', values.grace as string | undefined);
    const probeTimeoutMs = parseMs('check', '--probe-timeout', values['probe-timeout'] as string | undefined);
    const isolation = parseIsolation('check', values.isolation as string | undefined);
    const report = await checkPackage(resolve(io.cwd, positionals[0]!), {
      isolation,
      ...(timeoutMs === undefined ? {} : { timeoutMs }),
      ...(graceMs === undefined ? {} : { graceMs }),
      ...(probeTimeoutMs === undefined ? {} : { probeTimeoutMs }),
      ...(values.cwd === undefined ? {} : { cwd: resolve(io.cwd, values.cwd as string) }),
    });
    io.stdout.write(values.json ? `${JSON.stringify(report, null, 2)}\n` : renderCheck(report));
    return report.clean ? EXIT.ok : EXIT.failed;
  },
};
