import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileConsumer } from '../../helpers/compile-consumer.js';
import { REPO } from '../../helpers/run-cli.js';

// Issue 26: a 1.x service links and runs against this package unchanged. The consumer is an
// executor registry written the way plurnk-core 1.x's is (fixtures/consumer/executor-registry.ts:
// discover(), one executor per tag in its own process, concurrent probes, tool registries through
// RuntimeInvocation.assertToolRegistry, manifests, resourcesPath). It is compiled against the
// built package with skipLibCheck false, then run by plain Node in a project whose node_modules
// holds the built-in leaves as installed, and a search-shaped leaf with a tool family.
const LEAVES = ['common', 'git', 'jq', 'sqlite', 'wasm'];
const FINDER = fileURLToPath(
  new URL('../../../fixtures/compat/node_modules/@acme/plurnk-execs-finder', import.meta.url),
);

interface TagReport {
  packageName: string;
  available: boolean;
  detail: string | null;
  manifest: Record<string, unknown>;
  resourcesPath: string | null;
  toolRegistry: { tools: { target: string; invocation: Record<string, unknown> }[] } | null;
}
interface RunReport {
  result: { status: number };
  channels: Record<string, { text: string; state: string }>;
  notices: Record<string, unknown>[];
}
interface Report {
  available: string[];
  skipped: string[];
  tags: Record<string, TagReport>;
  runs: Record<string, RunReport>;
}

let project = '';
let diagnostics: string[] = [];
let report: Report;

beforeAll(async () => {
  project = mkdtempSync(path.join(tmpdir(), 'plurnk-service-registry-'));
  diagnostics = compileConsumer({ files: ['executor-registry.ts', 'run-registry.ts'], outDir: project });
  // The service's own install: the framework and the leaves under node_modules, as npm links them.
  const link = (target: string, name: string) => {
    mkdirSync(path.dirname(path.join(project, 'node_modules', name)), { recursive: true });
    symlinkSync(target, path.join(project, 'node_modules', name), 'dir');
  };
  link(REPO, '@plurnk/plurnk-execs');
  for (const leaf of LEAVES) link(path.join(REPO, 'src', 'leaves', leaf), `@plurnk/plurnk-execs-${leaf}`);
  link(FINDER, '@acme/plurnk-execs-finder');
  if (diagnostics.length > 0) return;
  const { stdout } = await promisify(execFile)(process.execPath, [path.join(project, 'run-registry.js'), project], {
    cwd: project,
    env: { ...process.env, PLURNK_EXECS_ERROR_DETAIL_LIMIT: '512' },
    maxBuffer: 16 * 1024 * 1024,
  });
  report = JSON.parse(stdout) as Report;
}, 300_000);

afterAll(() => {
  if (project) rmSync(project, { recursive: true, force: true });
});

describe('a service written the way plurnk-core 1.x is, over the built-in leaves', () => {
  it('compiles against the built package with skipLibCheck false', () => {
    expect(diagnostics).toEqual([]);
  });

  it('boots: every built-in tag is registered to its package and probed; sh, the default runtime, is available', () => {
    const byPackage = Object.entries(report.tags).map(([tag, entry]) => [tag, entry.packageName]);
    expect(byPackage).toEqual(
      expect.arrayContaining([
        ['sh', '@plurnk/plurnk-execs-common'],
        ['git', '@plurnk/plurnk-execs-git'],
        ['jq', '@plurnk/plurnk-execs-jq'],
        ['sqlite', '@plurnk/plurnk-execs-sqlite'],
        ['wat', '@plurnk/plurnk-execs-wasm'],
        ['wasm', '@plurnk/plurnk-execs-wasm'],
        ['find', '@acme/plurnk-execs-finder'],
      ]),
    );
    expect(report.available).toEqual(expect.arrayContaining(['sh', 'node', 'jq', 'sqlite', 'wat', 'wasm', 'find']));
    // A verdict for every tag, available or not: ruby on a machine without it says how to get it.
    for (const entry of Object.values(report.tags)) expect(typeof entry.available).toBe('boolean');
    expect(report.skipped).toEqual([]);
  });

  it("reads each executor's 1.x output-scheme manifest and each tag's resourcesPath", () => {
    expect(report.tags.jq?.manifest).toEqual({
      name: 'jq',
      glyph: '🧩',
      channels: { results: 'application/jsonl' },
      defaultChannel: 'results',
      category: 'data',
      writableBy: ['plugin'],
      volatile: true,
      modelVisible: true,
      folderScopes: true,
      foldedByDefault: true,
    });
    for (const [tag, entry] of Object.entries(report.tags)) {
      expect(entry.manifest).toMatchObject({ name: tag, category: 'data', writableBy: ['plugin'] });
      expect(entry.resourcesPath).toBe(tag === 'find' ? '/tools' : null);
    }
  });

  it('validates each tool registry through RuntimeInvocation.assertToolRegistry: the family has one, the rest none', () => {
    const family = report.tags.find?.toolRegistry;
    expect(family?.tools.map((tool) => tool.target)).toEqual(['pages', 'count']);
    expect(family?.tools[0]?.invocation).toMatchObject({ inputSchema: { type: 'object', required: ['q'] } });
    const others = Object.entries(report.tags).filter(([tag]) => tag !== 'find');
    expect(others.filter(([, entry]) => entry.toolRegistry !== null)).toEqual([]);
  });

  it("runs one EXEC per leaf package in the service's process, each to 200", () => {
    expect(Object.keys(report.runs).sort()).toEqual(['find', 'git', 'jq', 'sh', 'sqlite', 'wat']);
    for (const run of Object.values(report.runs)) expect(run.result.status).toBe(200);
    expect(report.runs.sh?.channels.stdout).toEqual({ text: 'hello\n', state: 'closed' });
    expect(report.runs.git?.channels.stdout?.text).toMatch(/^git version /);
    expect(report.runs.jq?.channels.results?.text.trim()).toBe('60');
    expect(JSON.parse(report.runs.sqlite?.channels.results?.text ?? '[]')).toEqual([
      { two: 2, version: expect.any(String) },
    ]);
    expect(JSON.parse(report.runs.wat?.channels.results?.text ?? '{}')).toMatchObject({ returned: 42 });
    expect(report.runs.find?.channels.results?.text).toBe('3');
  });
});
