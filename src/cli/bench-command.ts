import { BENCH_SCENARIOS, ON_REQUEST, runBench } from '../bench/index.js';
import { isPlurnkExecsError } from '../contracts/errors.js';
import { EXIT, type CliIo, type Command } from './cli-io.js';
import { parseFlags, parseIsolation, UsageError } from './parse-flags.js';

const USAGE = `Usage: plurnk-execs bench [scenario…] [--json] [--quick] [--isolation process|thread]

Runs the benchmarks with real threads and processes, each reported as a ratio against a
baseline measured in the same run (median and p95), as a table or JSON. Progress goes to
stderr. Scenarios: ${Object.keys(BENCH_SCENARIOS).join(', ')} (default: all but
${ON_REQUEST.join(', ')}, about 20 minutes; ${ON_REQUEST.join(', ')} only when named).

  --json           print the report as JSON instead of the table
  --quick          fewer samples: a smoke run, not figures to record
  --isolation <t>  the tier of the hosts measured: process (default) or thread; the isolation
                   scenario measures both (docs/isolation.md)
`;

/** `plurnk-execs bench`. */
export const benchCommand: Command = {
  name: 'bench',
  summary: 'measure probe latency, dispatch, sinks, subprocesses, recycling and memory',
  usage: USAGE,
  async run(argv: string[], io: CliIo): Promise<number> {
    const { values, positionals } = parseFlags(
      'bench',
      argv,
      { json: { type: 'boolean' }, quick: { type: 'boolean' }, isolation: { type: 'string' } },
      { names: Object.keys(BENCH_SCENARIOS), required: 0 },
    );
    if (values.help) return (void io.stdout.write(USAGE), EXIT.ok);
    const isolation = parseIsolation('bench', values.isolation as string | undefined);
    let report;
    try {
      report = await runBench({
        scenarios: positionals,
        json: values.json === true,
        quick: values.quick === true,
        isolation,
        cwd: io.cwd,
        write: (text) => void io.stdout.write(text),
        progress: (line) => void io.stderr.write(`${line}\n`),
      });
    } catch (error) {
      // An unknown scenario is a usage mistake, reported before anything runs.
      if (isPlurnkExecsError(error, 'invalid-configuration')) throw new UsageError(`bench: ${error.message}`);
      throw error;
    }
    // Every other scenario was measured and printed; the exit status says one was not.
    return report.scenarios.some((scenario) => scenario.failed !== undefined) ? EXIT.failed : EXIT.ok;
  },
};
