import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ConformanceReport } from '../../../../scripts/jq-conformance/cases.d.mts';
import { directRunner, hostRunner, runConformance } from '../../../../scripts/jq-conformance/run.mjs';
import { createHost } from '../../../../src/host/index.js';
import { LEAVES_DIR } from '../leaf-harness.js';

/** jq 1.8.2's own suites, kept with the fixtures (test data, with jq's licence). */
const SUITE = join(import.meta.dirname, '..', '..', '..', '..', 'fixtures', 'conformance', 'jq-1.8.2');

let leaf: ConformanceReport;
let direct: ConformanceReport;

beforeAll(async () => {
  const files = [join(SUITE, 'jq.test'), join(SUITE, 'man.test')];
  // Threads are kept between cases ('never') so 768 cases take seconds, not minutes; the leaf
  // itself replaces a jq module that aborted, which is what lets later cases pass.
  const host = await createHost({ packageDirs: [join(LEAVES_DIR, 'jq')], recycle: 'never' });
  const runner = await hostRunner(host);
  try {
    leaf = await runConformance(files, runner.runCase);
  } finally {
    await runner.close();
    await host.close();
  }
  direct = await runConformance(files, (await directRunner()).runCase);
}, 300_000);

describe('jq conformance through the leaf, via the host', () => {
  it('passes every case that jq-wasm driven directly passes', () => {
    const key = (f: { file: string; line: number }) => `${f.file}:${f.line}`;
    const leafFailures = new Set(leaf.failures.map(key));
    const directFailures = new Set(direct.failures.map(key));
    expect(leaf.passed + leaf.failed).toBe(direct.passed + direct.failed);
    expect([...leafFailures].filter((k) => !directFailures.has(k))).toEqual([]);
    expect(leaf.passed).toBeGreaterThanOrEqual(direct.passed);
  });

  it('passes every judged case, the deep-nesting ones included (jq-wasm alone overflows its stack on them)', () => {
    expect(leaf.failures).toEqual([]);
    expect(leaf.passed).toBe(768);
  });

  it('judges the 768 cases jq-wasm is measured on, leaving out the 13 that need a module path', () => {
    expect(leaf.passed + leaf.failed).toBe(768);
    expect(leaf.skipped).toBe(13);
  });
});
