/**
 * `plurnk-execs check`: one leaf package, or every leaf package in a directory (a
 * `node_modules`, or a folder of packages laid out like one) with a summary table after them.
 */
import { resolve } from 'node:path';
import { CHECK_RUN_TIMEOUT_MS, checkPackage, type CheckOptions } from '../check/check-package.js';
import { checkPackages, findLeafPackages } from '../check/check-packages.js';
import { DEFAULT_GRACE_MS, DEFAULT_PROBE_TIMEOUT_MS } from '../model/defaults.js';
import { EXIT, type CliIo, type Command } from './cli-io.js';
import { parseFlags, parseIsolation, parseMs } from './parse-flags.js';
import { renderCheck } from './render-check.js';
import { renderCheckSet } from './render-check-set.js';

const USAGE = `Usage: plurnk-execs check <package-dir | dir-of-packages> [--json] [--strict] [--cwd <dir>] [--timeout <ms>]
                           [--grace <ms>] [--probe-timeout <ms>] [--isolation process|thread]

Loads the executor leaf package in <package-dir> in isolation (its operator policy and trust
gate set aside) and reports, per tag: the manifest verdict with every validation error, the
probe verdict and latency, its declared example run through the isolating host, the contract
checks — undeclared channels, console output, signal honoured within grace, processes left
behind, state retained across runs, result validity, other violations — and what each run
did: wall time, peak memory, processes started and left, files changed in its cwd, console
bytes, sink messages and bytes, violations. A tag's verdict is clean, warning (its example
ran with a Problem of the leaf's own: not a fault), not run, or FAULT.

Given a directory that is no leaf package, checks every leaf package in it (a node_modules,
or a folder of packages laid out like one) and ends with a summary table.

  --json                 print the report as JSON (schema plurnk-execs/check@2; a directory:
                         plurnk-execs/check-set@2)
  --strict               a tag whose example ran with a Problem is not clean either
  --cwd <dir>            where the examples run, one tag at a time (default: an empty temporary
                         directory per tag); an example whose file target is missing there is
                         reported not run
  --timeout <ms>         deadline of each run of the example (default ${CHECK_RUN_TIMEOUT_MS})
  --grace <ms>           grace after an abort, and between SIGHUP and SIGKILL (default ${DEFAULT_GRACE_MS})
  --probe-timeout <ms>   how long the probe and a runtimes hook may take (default ${DEFAULT_PROBE_TIMEOUT_MS})
  --isolation <t>        process (default): the leaf's threads run in an engine process of the
                         host's own; thread: in this process (docs/isolation.md)

Exit code: 0 only when every package is clean; 1 otherwise; 2 for a bad command line.
`;

/** `plurnk-execs check`. */
export const checkCommand: Command = {
  name: 'check',
  summary: 'check a leaf package (or a directory of them) against the contract: a verdict per tag',
  usage: USAGE,
  async run(argv: string[], io: CliIo): Promise<number> {
    const { values, positionals } = parseFlags(
      'check',
      argv,
      {
        json: { type: 'boolean' },
        strict: { type: 'boolean' },
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
    const options: CheckOptions = {
      isolation: parseIsolation('check', values.isolation as string | undefined),
      strict: values.strict === true,
      ...(timeoutMs === undefined ? {} : { timeoutMs }),
      ...(graceMs === undefined ? {} : { graceMs }),
      ...(probeTimeoutMs === undefined ? {} : { probeTimeoutMs }),
      ...(values.cwd === undefined ? {} : { cwd: resolve(io.cwd, values.cwd as string) }),
    };
    const target = resolve(io.cwd, positionals[0]!);
    const found = await findLeafPackages(target);
    // A package, or a directory with none (checkPackage names what is missing).
    if (found.length === 0 || (found.length === 1 && found[0] === target)) {
      const report = await checkPackage(target, options);
      io.stdout.write(values.json ? `${JSON.stringify(report, null, 2)}\n` : renderCheck(report));
      return report.clean ? EXIT.ok : EXIT.failed;
    }
    // Each package's report as it is done; the summary after the last.
    const set = await checkPackages(target, options, (report) => {
      if (!values.json) io.stdout.write(`${renderCheck(report)}\n`);
    });
    io.stdout.write(values.json ? `${JSON.stringify(set, null, 2)}\n` : renderCheckSet(set));
    return set.clean ? EXIT.ok : EXIT.failed;
  },
};
