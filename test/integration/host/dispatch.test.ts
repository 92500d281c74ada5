import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootHost, type Host } from '../../../src/host/index.js';
import { fixtureDiscovery } from '../../helpers/fixture-discovery.js';
import { namedError } from '../../helpers/named-error.js';

// Dispatch in the consumer's order: registry (501), availability (501), invocation buckets
// (400), target realization, then effect() exactly once in the thread that runs.
describe('dispatch', () => {
  let host: Host;
  let scratch: string;
  beforeAll(async () => {
    scratch = mkdtempSync(join(tmpdir(), 'plurnk-host-dispatch-'));
    writeFileSync(join(scratch, 'data.txt'), 'x');
    host = await bootHost(fixtureDiscovery(['exec-echo', 'exec-unavailable', 'exec-spins'], { disabled: ['cobol'] }));
  });
  afterAll(async () => {
    await host.close();
    rmSync(scratch, { recursive: true, force: true });
  });

  const echoed = (out: { channels: Record<string, { text: string }> }) =>
    JSON.parse(out.channels.out!.text) as Record<string, unknown>;

  it('refuses an unknown tag with 501 runtime-not-registered, listing the available runtimes', async () => {
    const out = await host.exec({ runtime: 'fortran', body: 'x' });
    expect(out).toEqual({
      outcome: 'refused',
      result: {
        status: 501,
        problem: {
          type: 'https://problems.plurnk.xyz/scheme/exec/runtime-not-registered',
          title: 'Runtime not registered',
          status: 501,
          detail: 'no runtime "fortran" is registered; available: echo, echo-either, echo-literal, echo-target, spin',
          available: ['echo', 'echo-either', 'echo-literal', 'echo-target', 'spin'],
        },
      },
      effect: null,
      address: null,
      channels: {},
      notices: [],
      violations: [],
    });
  });

  it('refuses a policy-disabled tag with 501 runtime-disabled', async () => {
    const out = await host.exec({ runtime: 'cobol', body: 'x' });
    expect(out.result.problem).toMatchObject({
      type: 'https://problems.plurnk.xyz/scheme/exec/runtime-disabled',
      status: 501,
    });
  });

  it("refuses an unavailable tag with 501 runtime-unavailable carrying the probe's detail", async () => {
    const out = await host.exec({ runtime: 'absent', body: 'x' });
    expect(out.result.problem).toMatchObject({
      status: 501,
      detail: 'runtime absent is unavailable: install absent-tool 2.x',
    });
  });

  it.each([
    ['target-not-supported', { runtime: 'spin', body: 'x', target: 't' }],
    ['body-required', { runtime: 'echo-literal', body: '   ' }],
    ['target-required', { runtime: 'echo-target', body: 'x' }],
    ['input-required', { runtime: 'echo', body: '', target: null }],
    ['input-conflict', { runtime: 'echo-either', body: 'x', target: 't' }],
    ['cwd-not-found', { runtime: 'echo', body: 'x', cwd: '/nonexistent/plurnk-execs-cwd' }],
  ])('refuses with 400 %s before effect()', async (code, request) => {
    const out = await host.exec(request);
    expect(out.outcome).toBe('refused');
    expect(out.result.status).toBe(400);
    expect(out.result.problem?.type).toBe(`https://problems.plurnk.xyz/scheme/exec/${code}`);
    expect(out.effect).toBeNull();
  });

  it('calls effect() once with the realized target and returns it with the outcome and address', async () => {
    const plain = await host.exec({ runtime: 'echo', body: 'hi', address: { loop: 1, turn: 2, sequence: 3 } });
    expect(plain).toMatchObject({ result: { status: 200 }, effect: 'pure', address: 'echo:///1/2/3' });
    expect(echoed(plain)).toEqual({
      runtime: 'echo',
      body: 'hi',
      target: null,
      cwd: null,
      glyph: '🔊',
      effects: [null],
    });
    const withTarget = await host.exec({
      runtime: 'echo',
      body: '',
      target: pathToFileURL(join(scratch, 'data.txt')).href,
    });
    expect(withTarget.effect).toBe('read');
    // Called once, in the thread that ran, with the realized (local path) target.
    expect(echoed(withTarget).effects).toEqual([join(scratch, 'data.txt')]);
  });

  // The echo leaf records every effect() call in its thread's module state and reports them
  // on its next run; a thread used only for a call is kept and handed to the next run.
  it("answers host.effect from the tag's thread", async () => {
    expect(await host.effect('echo', null)).toBe('pure');
    expect(await host.effect('echo', 'anything')).toBe('read');
    const out = await host.exec({ runtime: 'echo', body: 'b' });
    expect(echoed(out).effects).toEqual([null, 'anything', null]);
  });

  it('passes a file:// path target on as a local path', async () => {
    const out = await host.exec({ runtime: 'echo', body: 'b', target: pathToFileURL(join(scratch, 'data.txt')).href });
    expect(echoed(out)).toMatchObject({ target: join(scratch, 'data.txt'), cwd: null });
  });

  it('sends a local directory target to cwd when the invocation says directory: "cwd"', async () => {
    const out = await host.exec({ runtime: 'echo', body: 'b', target: scratch });
    expect(echoed(out)).toMatchObject({ target: null, cwd: scratch });
    expect(out.effect).toBe('pure');
  });

  it('refuses a path target with another scheme with 400 target-not-supported', async () => {
    const out = await host.exec({ runtime: 'echo', body: 'b', target: 'https://example.test/data.txt' });
    expect(out.result.problem).toMatchObject({
      status: 400,
      detail: 'echo takes a local or file:// path as its target (path); received "https://example.test/data.txt"',
    });
  });

  it('keeps a literal target whole', async () => {
    const out = await host.exec({ runtime: 'echo-literal', body: 'b', target: 'sqlite:///1/2/3#results' });
    expect(echoed(out)).toMatchObject({ target: 'sqlite:///1/2/3#results', glyph: '' });
  });

  it('rejects a malformed request with invalid-request naming the field', async () => {
    const error = await namedError(host.exec({ runtime: 'echo', body: 42 } as never), 'invalid-request');
    expect(error.message).toMatch(/body/);
    const typo = await namedError(host.exec({ runtime: 'echo', body: 'x', timeout: 5 } as never), 'invalid-request');
    expect(typo.message).toMatch(/timeout: unknown key "timeout"; the allowed keys are runtime, body, .*timeoutMs/);
    expect(typo.message).not.toMatch(/Expected never/);
  });

  it('rejects host.effect for a tag it cannot serve with runtime-unavailable', async () => {
    for (const tag of ['absent', 'fortran', 'cobol']) {
      await namedError(host.effect(tag, null), 'runtime-unavailable');
    }
  });
});
