import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkPackage } from '../../src/check/index.js';
import { createHost, type Host } from '../../src/host/index.js';

/** The fixture leaf, laid out as installed, and the 1.x-style source it was compiled from. */
const LEAF_DIR = fileURLToPath(
  new URL('../../fixtures/compat/node_modules/@acme/plurnk-execs-legacy', import.meta.url),
);
const SOURCE = fileURLToPath(new URL('./legacy-leaf.source.ts', import.meta.url));

/** Type-checks and emits the 1.x source with this package's TypeScript, as a leaf's build would. */
function compileSource(): { diagnostics: string[]; js: string } {
  const program = ts.createProgram([SOURCE], {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    types: ['node'],
    strict: true,
    noImplicitOverride: true,
    skipLibCheck: true,
    rootDir: fileURLToPath(new URL('.', import.meta.url)),
  });
  let js = '';
  const emitted = program.emit(undefined, (_name, text) => (js = text));
  const diagnostics = [...ts.getPreEmitDiagnostics(program), ...emitted.diagnostics].map(
    (d) => `TS${d.code}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`,
  );
  return { diagnostics, js };
}

describe('a leaf written against 1.x', () => {
  it('type-checks against this package (protected binary/spawnArgs overrides: no TS2415), and is the fixture', () => {
    const { diagnostics, js } = compileSource();
    expect(diagnostics).toEqual([]);
    expect(js).toBe(readFileSync(`${LEAF_DIR}/lib/index.js`, 'utf8'));
    // A whole-program type-check with @types/node: seconds on a loaded machine.
  }, 120_000);

  describe('through createHost', () => {
    let host: Host;
    beforeAll(async () => {
      host = await createHost({ packageDirs: [LEAF_DIR] });
    });
    afterAll(async () => {
      await host?.close();
    });

    it('is available without a binary by default, and probes the binary it names', () => {
      expect(host.availability('legacy')).toMatchObject({ available: true });
      expect(host.availability('legacy')).not.toHaveProperty('detail');
      expect(host.availability('legacy-sum')).toMatchObject({ available: true, detail: process.version });
    });

    it('runs its spawnArgs override to a 1.x result', async () => {
      const out = await host.exec({ runtime: 'legacy', body: 'echo legacy; echo oops >&2' });
      expect(out.result).toEqual({ status: 200, exitCode: 0 });
      expect(out.channels.stdout).toMatchObject({ text: 'legacy\n', state: 'closed' });
      expect(out.channels.stderr).toMatchObject({ text: 'oops\n', state: 'closed' });
      expect(out.violations).toEqual([]);
    });

    it("keeps the leaf's own recovery on a CommandSyntaxError", async () => {
      const out = await host.exec({ runtime: 'legacy', body: 'echo `date`' });
      expect(out.result).toEqual({
        status: 400,
        exitCode: -1,
        problem: {
          type: 'https://problems.plurnk.xyz/executor/subprocess/invalid-command',
          title: 'Invalid command',
          status: 400,
          detail: "Could not parse the 'legacy' command: backticks are not supported.",
          runtime: 'legacy',
          stage: 'input-validation',
          recovery: 'Use $(...) instead.',
          retryable: false,
        },
      });
    });

    it('reads the body as args.command, emits a 1.x notice, gets cancelled from interact, renders BigInts, returns extra fields', async () => {
      const out = await host.exec({ runtime: 'legacy-sum', body: 'sum 1 2 18446744073709551616' });
      expect(out.result).toEqual({ status: 200, total: '18446744073709551619', answer: 'cancelled' });
      expect(out.channels.results).toMatchObject({ text: '["1",\n"2",\n"18446744073709551616"]', state: 'closed' });
      expect(out.notices).toEqual([
        {
          source: 'legacy',
          kind: 'legacy_progress',
          level: 'info',
          message: 'summing under PLURNK_EXECS_ERROR_DETAIL_LIMIT',
        },
      ]);
      expect(out.violations).toEqual([]);
    });

    it('passes a Problem with an undefined extension (errorCode: err.code)', async () => {
      const out = await host.exec({ runtime: 'legacy-sum', body: 'sum 1 two' });
      expect(out.result).toMatchObject({
        status: 400,
        problem: {
          type: 'https://problems.plurnk.xyz/executor/legacy/not-a-number',
          title: 'Not a number',
          detail: 'Cannot convert two to a BigInt',
          stage: 'input-validation',
        },
      });
      expect(out.result.problem?.errorCode).toBeUndefined();
    });

    it('passes a Problem whose type is an absolute URI of its own', async () => {
      const out = await host.exec({ runtime: 'legacy-sum', body: 'sum 1 2 3 4 5 6' });
      expect(out.result).toEqual({
        status: 422,
        problem: {
          type: 'https://acme.example/problems/too-many',
          title: 'Too many',
          status: 422,
          detail: 'at most 5 numbers; received 6',
        },
      });
    });
  });

  it('passes plurnk-execs check clean', async () => {
    const report = await checkPackage(LEAF_DIR, { timeoutMs: 5000, graceMs: 500, probeTimeoutMs: 3000 });
    const failed = report.tags.flatMap((tag) =>
      [tag.manifest, tag.probe, tag.example, ...Object.values(tag.checks)]
        .filter((item) => item.verdict === 'fail')
        .map((item) => `${tag.tag}: ${JSON.stringify(item)}`),
    );
    expect({ discovery: report.discovery.verdict, failed }).toEqual({ discovery: 'pass', failed: [] });
    expect(report.tags.map((tag) => tag.tag).sort()).toEqual(['legacy', 'legacy-sum']);
    expect(report.clean).toBe(true);
  });
});
