import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ConformanceReport } from '../../../../scripts/jq-conformance/cases.d.mts';
import { directRunner, inProcessRunner, runConformance } from '../../../../scripts/jq-conformance/run.mjs';
import { executorClass } from '../leaf-harness.js';

/** jq 1.8.2's own suites, kept in the shared folder beside the repository (as in CI). */
function findSuite(): string {
  for (let dir = import.meta.dirname; dirname(dir) !== dir; dir = dirname(dir)) {
    const candidate = join(dir, 'shared', 'conformance', 'jq-1.8.2');
    if (existsSync(join(candidate, 'jq.test'))) return candidate;
  }
  throw new Error('jq 1.8.2 conformance suite not found: expected shared/conformance/jq-1.8.2 beside the repository');
}

let leaf: ConformanceReport;
let direct: ConformanceReport;

beforeAll(async () => {
  const suite = findSuite();
  const files = [join(suite, 'jq.test'), join(suite, 'man.test')];
  const inProcess = await inProcessRunner(await executorClass('@plurnk/plurnk-execs-jq'));
  try {
    leaf = await runConformance(files, inProcess.runCase);
  } finally {
    await inProcess.close();
  }
  direct = await runConformance(files, (await directRunner()).runCase);
}, 120_000);

describe('jq conformance through the leaf (in-process)', () => {
  it('passes every case that jq-wasm driven directly passes', () => {
    const key = (f: { file: string; line: number }) => `${f.file}:${f.line}`;
    const leafFailures = new Set(leaf.failures.map(key));
    const directFailures = new Set(direct.failures.map(key));
    expect(leaf.passed + leaf.failed).toBe(direct.passed + direct.failed);
    expect([...leafFailures].filter((k) => !directFailures.has(k))).toEqual([]);
    expect(leaf.passed).toBeGreaterThanOrEqual(direct.passed);
  });

  it('fails only where the WebAssembly stack overflows or a module search path is needed', () => {
    const unexplained = leaf.failures.filter((f) => !/jq-aborted/.test(f.reason) && !/^modulemeta/.test(f.program));
    expect(unexplained).toEqual([]);
  });

  it('leaves out exactly the module cases (import/include need -L)', () => {
    expect(leaf.skipped).toBe(14);
  });
});
