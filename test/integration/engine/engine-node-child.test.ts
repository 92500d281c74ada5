import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHost, type ExecOutcome, type ExecRequest, type Host } from '../../../src/host/index.js';
import { scratchDir } from '../../helpers/scratch.js';
import { zooDirs } from '../../helpers/zoo.js';

/** A run's channels as both tiers must agree on them, with Node's `(node:<pid>)` warning prefix made pid-free. */
function printed(out: ExecOutcome) {
  const text = (name: string) => (out.channels[name]?.text ?? '').replace(/\(node:\d+\)/g, '(node:PID)');
  return { result: out.result, stdout: text('stdout'), stderr: text('stderr') };
}

// A `node` child of the engine is a child process like any other (docs/isolation.md): on every
// Node it runs without the engine's permission model, so its output and what it may write are
// the thread tier's. Node since nodejs/node#58853 (26 here, not 20) would otherwise hand the
// engine's permission flags to every child in NODE_OPTIONS, and a `node` child would print Node's
// warnings about them on its stderr.
describe("a `node` run in the process tier is the thread tier's", () => {
  const hosts: Partial<Record<'thread' | 'process', Host>> = {};
  const allowed = scratchDir('plurnk-node-child-allowed');
  const elsewhere = scratchDir('plurnk-node-child-elsewhere');
  beforeAll(async () => {
    const packageDirs = zooDirs('host/exec-subprocess');
    [hosts.thread, hosts.process] = await Promise.all([
      createHost({ isolation: 'thread', packageDirs }),
      createHost({ isolation: 'process', packageDirs, permissions: { fsWrite: [allowed] } }),
    ]);
  });
  afterAll(async () => {
    await Promise.all(Object.values(hosts).map((host) => host.close()));
  });
  /** The request run in both tiers at once: [thread, process]. */
  const both = async (request: ExecRequest) => {
    const [thread, processTier] = await Promise.all([hosts.thread!.exec(request), hosts.process!.exec(request)]);
    return [printed(thread), printed(processTier)] as const;
  };

  it('prints exactly what the program printed on stderr, no permission warnings', async () => {
    const [thread, processTier] = await both({
      runtime: 'node',
      body: 'console.error("to stderr"); process.stderr.write("raw\\n"); console.log("to stdout")',
    });
    expect(processTier).toEqual({
      result: { status: 200, exitCode: 0 },
      stdout: 'to stdout\n',
      stderr: 'to stderr\nraw\n',
    });
    expect(processTier).toEqual(thread);
  });

  it("keeps the program's own warnings, experimental ones included", async () => {
    const [thread, processTier] = await both({
      runtime: 'node',
      body: 'process.emitWarning("mine is experimental", "ExperimentalWarning"); process.emitWarning("and mine", { code: "PERM0002" })',
    });
    expect(processTier.stderr).toMatch(/^\(node:PID\) ExperimentalWarning: mine is experimental\n/);
    expect(processTier.stderr).toContain('(node:PID) [PERM0002] Warning: and mine\n');
    expect(processTier).toEqual(thread);
  });

  it('gives a `node` started by an `sh` run the same output, and no NODE_OPTIONS of the engine', async () => {
    const [thread, processTier] = await both({
      runtime: 'sh',
      body: `node -e 'console.error("grandchild")'; echo "NODE_OPTIONS=\${NODE_OPTIONS-unset}"`,
    });
    expect(processTier).toEqual({
      result: { status: 200, exitCode: 0 },
      stdout: 'NODE_OPTIONS=unset\n',
      stderr: 'grandchild\n',
    });
    expect(processTier).toEqual(thread);
  });

  it('holds a `node` child to permissions.fsWrite by the read-only view, not the model', async () => {
    const write = (file: string) =>
      `try { require("fs").writeFileSync(${JSON.stringify(file)}, "written by node"); console.log("written") } catch (e) { console.log(e.code) } console.log("permission" in process)`;
    const refused = join(elsewhere, `${randomUUID()}.txt`);
    const out = await hosts.process!.exec({ runtime: 'node', body: write(refused) });
    // Outside the model (no `process.permission`), yet EROFS where the sandbox locked the view.
    const locked = hosts.process!.isolation().fsView === 'read-only';
    expect(printed(out)).toEqual({
      result: { status: 200, exitCode: 0 },
      stdout: `${locked ? 'EROFS' : 'written'}\nfalse\n`,
      stderr: '',
    });
    expect(existsSync(refused)).toBe(!locked);
    const allowedFile = join(allowed, `${randomUUID()}.txt`);
    expect(printed(await hosts.process!.exec({ runtime: 'node', body: write(allowedFile) })).stdout).toBe(
      'written\nfalse\n',
    );
    expect(readFileSync(allowedFile, 'utf8')).toBe('written by node');
  });
});
