#!/usr/bin/env node
// Runs jq 1.8.2's own test suites (jq.test, man.test) through the jq leaf and prints each
// failure with its reason, then `N passed, N failed`. Usage (after `npm run build`):
//   node scripts/jq-conformance.mjs [--suite DIR] [--json] [--direct]
// DIR defaults to the nearest shared/conformance/jq-1.8.2 above the repository. --direct drives
// jq-wasm itself instead of the leaf, to compare the two with the same parser and judge.
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { directRunner, inProcessRunner, runConformance } from './jq-conformance/run.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const argv = process.argv.slice(2);
const suite = argv.includes('--suite') ? resolve(argv[argv.indexOf('--suite') + 1] ?? '') : findSuite(root);
if (suite === undefined || !existsSync(join(suite, 'jq.test'))) {
  process.stderr.write('jq-conformance: no jq 1.8.2 suite found; pass --suite DIR (the folder holding jq.test and man.test)\n');
  process.exit(2);
}

const { default: JqExecutor } = await import('@plurnk/plurnk-execs-jq');
process.env.PLURNK_EXECS_ERROR_DETAIL_LIMIT ??= '512';
const runner = argv.includes('--direct') ? await directRunner() : await inProcessRunner(JqExecutor);
try {
  const report = await runConformance([join(suite, 'jq.test'), join(suite, 'man.test')], runner.runCase);
  if (argv.includes('--json')) process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  else {
    for (const f of report.failures) process.stdout.write(`FAIL ${f.file}:${f.line} ${f.program}\n     ${f.reason}\n`);
    process.stdout.write(`(${report.skipped} module cases left out)\n${report.passed} passed, ${report.failed} failed\n`);
  }
} finally {
  await runner.close();
}

/** The nearest `shared/conformance/jq-1.8.2` in `from` or one of its parents. */
function findSuite(from) {
  for (let dir = from; ; dir = dirname(dir)) {
    const candidate = join(dir, 'shared', 'conformance', 'jq-1.8.2');
    if (existsSync(join(candidate, 'jq.test'))) return candidate;
    if (dirname(dir) === dir) return undefined;
  }
}
