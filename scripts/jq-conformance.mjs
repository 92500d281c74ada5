#!/usr/bin/env node
// Runs jq 1.8.2's own test suites (jq.test, man.test) through the jq leaf via the isolating
// host and prints each failure with its reason, then `N passed, N failed`. Usage (after
// `npm run build`):
//   node scripts/jq-conformance.mjs [--suite DIR] [--json] [--recycle each-run|never] [--in-process | --direct]
// DIR defaults to fixtures/conformance/jq-1.8.2. --recycle is the host's policy (default
// each-run, the host's own default). --in-process calls the leaf's executor in this thread;
// --direct drives jq-wasm itself, to compare with the same parser and judge.
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createHost } from '@plurnk/plurnk-execs/host';
import { directRunner, hostRunner, inProcessRunner, runConformance } from './jq-conformance/run.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const argv = process.argv.slice(2);
const suite = argv.includes('--suite')
  ? resolve(argv[argv.indexOf('--suite') + 1] ?? '')
  : join(root, 'fixtures', 'conformance', 'jq-1.8.2');
if (!existsSync(join(suite, 'jq.test'))) {
  process.stderr.write(
    `jq-conformance: no jq.test in ${suite}; pass --suite DIR (the folder holding jq.test and man.test)\n`,
  );
  process.exit(2);
}

const runner = await pickRunner();
try {
  const report = await runConformance([join(suite, 'jq.test'), join(suite, 'man.test')], runner.runCase);
  if (argv.includes('--json')) process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  else {
    for (const f of report.failures) process.stdout.write(`FAIL ${f.file}:${f.line} ${f.program}\n     ${f.reason}\n`);
    process.stdout.write(
      `(${report.skipped} module cases left out)\n${report.passed} passed, ${report.failed} failed\n`,
    );
  }
} finally {
  await runner.close();
}

/** The runner the flags ask for; the host's is closed with it. */
async function pickRunner() {
  if (argv.includes('--direct')) return directRunner();
  if (argv.includes('--in-process')) {
    process.env.PLURNK_EXECS_ERROR_DETAIL_LIMIT ??= '512';
    const { default: JqExecutor } = await import('@plurnk/plurnk-execs-jq');
    return inProcessRunner(JqExecutor);
  }
  const recycle = argv.includes('--recycle') ? argv[argv.indexOf('--recycle') + 1] : 'each-run';
  const host = await createHost({ packageDirs: [join(root, 'src', 'leaves', 'jq')], recycle });
  const runner = await hostRunner(host);
  return { runCase: runner.runCase, close: async () => (await runner.close(), await host.close()) };
}
