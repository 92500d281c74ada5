// Reads jq's own test-suite format (tests/jq.test, tests/man.test) and judges one outcome the
// way jq's runner (src/jq_test.c) does. Plain ESM with JSDoc so `node` runs it without a build.

/** @typedef {import('./cases.d.mts').JqCase} JqCase */
/** @typedef {import('./cases.d.mts').CaseOutcome} CaseOutcome */

/** A line jq's runner skips: blank, or a comment (`#` after optional blanks). It also ends a block. */
function isSkipLine(line) {
  return /^[ \t]*(#|$)/.test(line);
}

/**
 * A well-formed module directive (`import "a" as x`, `include "c";`, `include "c" {meta};`)
 * or `modulemeta`: its outcome depends on module files found through jq's `-L` search path,
 * which a leaf run does not have. A malformed directive (`include "a" (.+1);`, an escape in
 * the path) is refused at compile time before any lookup, so it is judged like any other.
 */
const NEEDS_MODULE_PATH = /\bimport\s+"[^"\\]*"\s+as\b|\binclude\s+"[^"\\]*"\s*[;{]|^\s*modulemeta\b/;

function skipReason(program) {
  return NEEDS_MODULE_PATH.test(program) ? 'loads a module (needs -L)' : undefined;
}

/**
 * Splits a test file into cases: `program`, `input`, expected output lines until a skip line;
 * after `%%FAIL` (or `%%FAIL IGNORE MSG`), `program` then the expected error until a skip line.
 * Cases that need a module search path are returned with `skip` set.
 *
 * @param {string} text
 * @param {string} file
 * @returns {JqCase[]}
 */
export function parseJqTests(text, file) {
  const lines = text.split('\n');
  /** @type {JqCase[]} */
  const cases = [];
  let mustFail = false;
  let i = 0;
  while (i < lines.length) {
    const line = lines[i];
    i += 1;
    if (isSkipLine(line)) continue;
    if (line.startsWith('%%FAIL')) {
      mustFail = true;
      continue;
    }
    const start = i;
    const program = line;
    const input = mustFail ? null : (lines[i++] ?? '');
    const expected = [];
    while (i < lines.length && !isSkipLine(lines[i])) expected.push(lines[i++]);
    const skip = skipReason(program);
    cases.push({ file, line: start, program, input, expected, mustFail, ...(skip ? { skip } : {}) });
    mustFail = false;
  }
  return cases;
}

/**
 * Judges one outcome: a `%%FAIL` case passes on a jq compile error (exit status 3); any other
 * passes when its outputs equal the expected values one for one, compared as JSON values with
 * object key order ignored. As in jq's runner, a runtime error (exit status 5) only ends the
 * outputs: it fails the case when expected values are still missing. Returns undefined on a
 * pass, else the reason.
 *
 * @param {JqCase} testCase
 * @param {CaseOutcome} outcome
 * @returns {string | undefined}
 */
export function judgeCase(testCase, outcome) {
  const problem = outcome.result.problem;
  // jq's exit status travels on the result, as plurnk 1.x puts it (`exitCode`).
  const exitCode = problem ? outcome.result.exitCode : 0;
  if (testCase.mustFail) {
    if (exitCode === 3) return undefined;
    return problem
      ? `expected a compile error, got ${describeProblem(problem)}`
      : 'expected a compile error, but the program ran';
  }
  if (problem && exitCode !== 5) return describeProblem(problem);
  const actual = outcome.text.split('\n').filter((line) => line !== '');
  if (actual.length !== testCase.expected.length) {
    const then = problem ? `, then ${describeProblem(problem)}` : '';
    return `expected ${testCase.expected.length} output(s), got ${actual.length}${then}: ${actual.join(' ').slice(0, 200)}`;
  }
  for (let k = 0; k < actual.length; k++) {
    const want = parseOrText(testCase.expected[k]);
    const got = parseOrText(actual[k]);
    if (!sameJson(want, got))
      return `output ${k + 1}: expected ${testCase.expected[k]}, got ${actual[k]}`.slice(0, 300);
  }
  return undefined;
}

/** Deep equality of JSON values; object keys compared as sets. */
export function sameJson(a, b) {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) return a.length === b.length && a.every((item, k) => sameJson(item, b[k]));
  const keys = Object.keys(a);
  return (
    keys.length === Object.keys(b).length && keys.every((key) => Object.hasOwn(b, key) && sameJson(a[key], b[key]))
  );
}

function parseOrText(text) {
  try {
    return JSON.parse(text);
  } catch {
    return { unparsable: text };
  }
}

function describeProblem(problem) {
  const code = String(problem.type).slice(String(problem.type).lastIndexOf('/') + 1);
  const firstLine = String(problem.detail).split('\n')[0];
  return `${problem.status} ${code}: ${firstLine}`.slice(0, 300);
}
