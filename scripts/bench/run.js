#!/usr/bin/env node
// `npm run bench [-- <scenario>… --json --quick]`: runs the compiled benchmark scenarios
// (src/bench, built to dist/bench by `npm run build`). The CLI's `bench` calls the same runBench.
import { parseArgs } from 'node:util';
import { BENCH_SCENARIOS, runBench } from '../../dist/bench/index.js';

const usage = `usage: npm run bench -- [scenario…] [--json] [--quick]
scenarios: ${Object.keys(BENCH_SCENARIOS).join(', ')} (default: all)
  --json   print the report as JSON instead of the table
  --quick  fewer samples: a smoke run, not figures to record`;

let parsed;
try {
  parsed = parseArgs({ allowPositionals: true, options: { json: { type: 'boolean' }, quick: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } } });
} catch (error) {
  process.stderr.write(`${error.message}\n${usage}\n`);
  process.exit(2);
}
if (parsed.values.help) {
  process.stdout.write(`${usage}\n`);
  process.exit(0);
}
try {
  await runBench({ scenarios: parsed.positionals, json: parsed.values.json, quick: parsed.values.quick });
} catch (error) {
  process.stderr.write(`${error.code === 'invalid-configuration' ? error.message : error.stack}\n${error.code === 'invalid-configuration' ? usage + '\n' : ''}`);
  process.exit(error.code === 'invalid-configuration' ? 2 : 1);
}
