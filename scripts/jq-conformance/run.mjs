// Runs jq's test suites through a pluggable "run one case" function: through the isolating
// host (the product path), the leaf's executor in this thread, or jq-wasm driven directly.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { judgeCase, parseJqTests } from './cases.mjs';

/** The environment jq's own harness gives man.test (tests/mantest runs `env -i PAGER=less`). */
export const JQ_TEST_ENV = Object.freeze({ PAGER: 'less' });

/**
 * Parses every suite file, runs each case that is not skipped through `runCase` (one at a
 * time: a case that aborts jq must not overlap the next), and judges it.
 *
 * @param {string[]} files paths of `.test` files
 * @param {import('./cases.d.mts').RunCase} runCase
 * @returns {Promise<import('./cases.d.mts').ConformanceReport>}
 */
export async function runConformance(files, runCase) {
  const report = { passed: 0, failed: 0, skipped: 0, failures: [] };
  for (const file of files) {
    const cases = parseJqTests(await readFile(file, 'utf8'), basename(file));
    for (const testCase of cases) {
      if (testCase.skip) {
        report.skipped += 1;
        continue;
      }
      const reason = judgeCase(testCase, await runCase(testCase));
      if (reason === undefined) report.passed += 1;
      else {
        report.failed += 1;
        report.failures.push({ file: testCase.file, line: testCase.line, program: testCase.program, reason });
      }
    }
  }
  return report;
}

/**
 * A runCase that sends each case through `host.exec` to the jq leaf in a worker thread, as an
 * embedding service would: the case's input line is written to a file that becomes the
 * target, the program is the body, and the env is {@link JQ_TEST_ENV}. Call `close()` to
 * remove the input files (the host is the caller's to close).
 *
 * @param {{ exec(request: object): Promise<{ result: object; channels: Record<string, { text: string }> }> }} host
 */
export async function hostRunner(host) {
  const dir = await mkdtemp(join(tmpdir(), 'jq-conformance-'));
  let count = 0;
  /** @type {import('./cases.d.mts').RunCase} */
  const runCase = async (testCase) => {
    const target = await writeInput(dir, testCase, count++);
    // A bare `jq` program with no input is `.` on null: the host needs a body or a target.
    const body = testCase.program.trim() === '' && target === null ? '.' : testCase.program;
    const out = await host.exec({ runtime: 'jq', body, target, cwd: dir, env: { ...JQ_TEST_ENV } });
    return { result: out.result, text: out.channels.results?.text ?? '' };
  };
  return { runCase, close: () => rm(dir, { recursive: true, force: true }) };
}

/** Writes a case's input line to its own file and returns the path, or null without input. */
async function writeInput(dir, testCase, index) {
  if (testCase.input === null) return null;
  const target = join(dir, `case-${index}.json`);
  await writeFile(target, testCase.input);
  return target;
}

/**
 * A runCase that calls the jq leaf's executor in this thread, as the host's worker will: the
 * case's input line is written to a file that becomes the target, the program is the body,
 * and the env is {@link JQ_TEST_ENV}. Call `close()` to remove the input files.
 *
 * @param {new (options: { runtime: string; glyph: string }) => { run(args: object): Promise<object> }} Executor
 */
export async function inProcessRunner(Executor) {
  const dir = await mkdtemp(join(tmpdir(), 'jq-conformance-'));
  const executor = new Executor({ runtime: 'jq', glyph: '' });
  let count = 0;
  /** @type {import('./cases.d.mts').RunCase} */
  const runCase = async (testCase) => {
    const target = await writeInput(dir, testCase, count++);
    const chunks = [];
    const result = await executor.run({
      runtime: 'jq',
      body: testCase.program,
      cwd: dir,
      target,
      env: { ...JQ_TEST_ENV },
      signal: new AbortController().signal,
      write: (_channel, chunk) => void chunks.push(chunk),
      setState: () => {},
      emit: () => {},
      interact: async () => ({ outcome: 'declined' }),
    });
    return { result, text: chunks.join('') };
  };
  return { runCase, close: () => rm(dir, { recursive: true, force: true }) };
}

/**
 * A runCase that drives jq-wasm directly, without the leaf, for comparison: the case's input
 * is jq's stdin, a fresh module replaces one that threw, and `$ENV` is jq-wasm's own.
 */
export async function directRunner() {
  const { loadJq } = await import('jq-wasm');
  let jq = await loadJq();
  /** @type {import('./cases.d.mts').RunCase} */
  const runCase = async (testCase) => {
    const original = console.error;
    console.error = () => {};
    try {
      const flags = testCase.input === null ? ['-c', '-n'] : ['-c'];
      const { stdout, stderr, exitCode } = jq.raw(testCase.input ?? '', testCase.program, flags);
      const problem = exitCode === 0 ? undefined : { type: 'direct/jq-error', status: 500, detail: stderr };
      return { result: problem ? { status: 500, exitCode, problem } : { status: 200 }, text: stdout };
    } catch (error) {
      jq = await loadJq();
      return {
        result: { status: 500, problem: { type: 'direct/jq-aborted', status: 500, detail: String(error) } },
        text: '',
      };
    } finally {
      console.error = original;
    }
  };
  return { runCase, close: async () => {} };
}
