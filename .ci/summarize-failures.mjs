// Prints what failed in one `npm test` run, for the end of the CI log: the failed test files and
// tests from vitest's JSON report, or, when the run stopped before vitest, the error lines of
// the build, lint or typecheck step; and the tests that passed only when retried, so a flaky
// test is seen rather than hidden by its retry. Usage: node summarize-failures.mjs <label> <report.json> <log>
import { existsSync, readFileSync } from 'node:fs';
import { relative } from 'node:path';

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
console.log(`${report.numFailedTests} of ${report.numTotalTests} tests failed`);
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
  for (const test of failed) {
    console.log(`  ✗ ${test.fullName} (${Math.round(test.duration ?? 0)} ms)`);
    for (const message of test.failureMessages.slice(0, 1))
      console.log(`    ${clip(message.replace(/\s+/g, ' '), 600)}`);
  }
}
