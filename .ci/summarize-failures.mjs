// Prints what failed in one `npm test` run, for the end of the CI log: the failed test files and
// tests from vitest's JSON report, or, when the run stopped before vitest, the error lines of
// the build, lint or typecheck step; and the tests that passed only when retried, so a flaky
// test is seen rather than hidden by its retry. A file that failed in a hook (a `beforeAll`,
// say) has no failed test and an empty message in the JSON report: its error is taken from the
// log, where vitest printed it under "Failed Suites". Usage: node summarize-failures.mjs <label> <report.json> <log>
import { existsSync, readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { stripVTControlCharacters } from 'node:util';

const [label, reportPath, logPath] = process.argv.slice(2);
const clip = (text, max) => (text.length > max ? `${text.slice(0, max)} …` : text);

console.log(`--- ${label}: what failed, and what passed only on retry`);
if (!existsSync(reportPath)) {
  console.log('vitest wrote no report: the run stopped in build, lint or typecheck. Its error lines:');
  const lines = existsSync(logPath) ? readFileSync(logPath, 'utf8').split('\n') : [];
  for (const line of lines.filter((l) => /error|warning|ERR!/i.test(l)).slice(-40)) console.log(`  ${clip(line, 300)}`);
  process.exit(0);
}
const report = JSON.parse(readFileSync(reportPath, 'utf8'));
const failedFiles = report.testResults.filter((file) => file.status === 'failed').length;
console.log(
  `${report.numFailedTests} of ${report.numTotalTests} tests failed; ${failedFiles} of ${report.testResults.length} test files failed`,
);
for (const file of report.testResults) {
  for (const test of file.assertionResults.filter((t) => t.status === 'passed' && t.failureMessages.length > 0)) {
    console.log(`RETRIED ${relative(process.cwd(), file.name)} › ${test.fullName}: passed on retry after`);
    console.log(`    ${clip(test.failureMessages[0].replace(/\s+/g, ' '), 400)}`);
  }
}
for (const file of report.testResults) {
  const failed = file.assertionResults.filter((t) => t.status === 'failed');
  if (file.status !== 'failed' && failed.length === 0) continue;
  console.log(`FAIL ${relative(process.cwd(), file.name)}`);
  if (failed.length === 0 && file.message) console.log(`  ${clip(file.message.replace(/\s+/g, ' '), 600)}`);
  else if (failed.length === 0)
    for (const line of suiteErrors(relative(process.cwd(), file.name))) console.log(`  ${line}`);
  for (const test of failed) {
    console.log(`  ✗ ${test.fullName} (${Math.round(test.duration ?? 0)} ms)`);
    for (const message of test.failureMessages.slice(0, 1))
      console.log(`    ${clip(message.replace(/\s+/g, ' '), 600)}`);
  }
}

/**
 * The blocks vitest's log printed for `path`'s failed suites: from each " FAIL  <project>  <path> > …" line
 * up to the next ⎯ rule, ANSI colours taken out, each line clipped; at most 40 lines in all.
 */
function suiteErrors(path) {
  if (!existsSync(logPath)) return ['(no log to take its error from)'];
  const lines = stripVTControlCharacters(readFileSync(logPath, 'utf8')).split('\n');
  const found = [];
  for (let at = 0; at < lines.length; at += 1) {
    // " FAIL   integration  test/….test.ts > describe": the project's name comes between.
    if (!/^\s*FAIL\s/.test(lines[at]) || !lines[at].includes(` ${path} > `)) continue;
    for (let next = at; next < lines.length && !lines[next].includes('⎯'); next += 1)
      if (lines[next].trim() !== '') found.push(clip(lines[next].trimEnd(), 300));
  }
  return found.length === 0 ? ['(the log names no failed suite of it)'] : found.slice(0, 40);
}
