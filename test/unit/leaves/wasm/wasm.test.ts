import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import initWabt from 'wabt';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createHost } from '../../../../src/host/index.js';
import { executorFor, hostFor, LEAVES_DIR, problemCodeOf, runTag } from '../leaf-harness.js';

const ANSWER = '(module (func (export "main") (result i32) i32.const 42))';
/** ANSWER as wabt encodes it (the wasm tag's manifest example); a test below keeps the two in step. */
const ANSWER_BASE64 = 'AGFzbQEAAAABBQFgAAF/AwIBAAcIAQRtYWluAAAKBgEEAEEqCw==';
const LOGGER = `(module
  (import "env" "log" (func $log (param i32)))
  (import "env" "log" (func $log2 (param i32 f64)))
  (func (export "main")
    (call $log (i32.const 7))
    (call $log2 (i32.const 1) (f64.const 2.5))))`;

let dir: string;

/** Assembles wat with the real wabt, for the `wasm` tag's binary inputs. */
async function assemble(text: string): Promise<Uint8Array> {
  const module = (await initWabt()).parseWat('test.wat', text);
  try {
    return new Uint8Array(module.toBinary({}).buffer);
  } finally {
    module.destroy();
  }
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'leaf-wasm-'));
  await writeFile(join(dir, 'answer.wasm'), Buffer.from(ANSWER_BASE64, 'base64'));
  await writeFile(join(dir, 'answer.wat'), ANSWER);
  await mkdir(join(dir, 'folder'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});
afterEach(() => {
  vi.unstubAllEnvs();
});

/** The parsed `results` of a successful run. */
async function output(
  tag: string,
  fields: { body?: string; target?: string; cwd?: string; env?: NodeJS.ProcessEnv },
): Promise<unknown> {
  const run = await runTag(tag, fields);
  expect(run.result).toEqual({ status: 200 });
  expect(run.channel('results')).toMatchObject({ mimetype: 'application/json', state: 'closed' });
  return JSON.parse(run.channel('results').text);
}

describe('wat and wasm leaf', () => {
  it.each([
    ['wat', { body: ANSWER }],
    ['wat', { target: 'answer.wat' }],
    ['wasm', { body: ANSWER_BASE64 }],
    ['wasm', { body: ANSWER_BASE64.replace(/(.{8})/g, '$1\n') }],
    ['wasm', { target: 'answer.wasm' }],
  ])('%s runs main from %j and reports {returned, log, exports}', async (tag, fields) => {
    expect(await output(tag, { ...fields, cwd: dir })).toEqual({ returned: 42, log: [], exports: ['main'] });
  });

  it('the base64 fixture is what wabt assembles from the wat fixture', async () => {
    expect(Buffer.from(await assemble(ANSWER)).toString('base64')).toBe(ANSWER_BASE64);
  });

  it('records every env.log call, several arguments as an array', async () => {
    expect(await output('wat', { body: LOGGER })).toEqual({ returned: null, log: [7, [1, 2.5]], exports: ['main'] });
  });

  it.each([
    [
      '_start when there is no main',
      '(module (func (export "other") (result i32) i32.const 1) (func (export "_start") (result i32) i32.const 2))',
      2,
    ],
    ['the only exported function', '(module (func (export "compute") (result i32) i32.const 3))', 3],
    ['nothing when no function is exported', '(module (memory (export "mem") 1))', null],
    [
      'nothing, with 200, when several functions are exported and none is main or _start',
      '(module (func (export "a") (result i32) i32.const 1) (func (export "b") (result i32) i32.const 2))',
      null,
    ],
  ])('calls %s', async (_, body, returned) => {
    expect(((await output('wat', { body })) as { returned: unknown }).returned).toBe(returned);
  });

  it('lists only the exported functions, in export order', async () => {
    const body =
      '(module (memory (export "mem") 1) (func (export "b")) (global (export "g") i32 (i32.const 1)) (func (export "a")))';
    expect(await output('wat', { body })).toEqual({ returned: null, log: [], exports: ['b', 'a'] });
  });

  it.each([
    ['beyond 2^53', '9007199254740993', '9007199254740993'],
    ['small', '5', '5'],
    ['negative', '-1', '-1'],
  ])('returns an i64 %s as its exact decimal string, as 1.x does', async (_, literal, returned) => {
    const body = `(module (func (export "main") (result i64) i64.const ${literal}))`;
    expect(((await output('wat', { body })) as { returned: unknown }).returned).toBe(returned);
  });

  it('logs an i64 argument as its decimal string', async () => {
    const body = `(module (import "env" "log" (func $log (param i64)))
      (func (export "main") (call $log (i64.const 7))))`;
    expect(((await output('wat', { body })) as { log: unknown }).log).toEqual(['7']);
  });

  it.each([
    [
      'wat',
      { body: '(module (func (export "main") i32.const))' },
      400,
      'wat-parse-error',
      /^The WebAssembly text module is invalid: module\.wat:1:\d+: error: unexpected token/,
      { stage: 'parse', recovery: 'Correct the WebAssembly text module.', retryable: false },
    ],
    [
      'wat',
      { body: '(module (func (export "main") (result i32) i64.const 1))' },
      400,
      'wasm-invalid',
      /^The WebAssembly module could not be instantiated: .*type mismatch/s,
      { stage: 'instantiate', recovery: 'Correct the WebAssembly module.', retryable: false },
    ],
    [
      'wat',
      { body: '(module (import "wasi_snapshot_preview1" "fd_write" (func (param i32 i32 i32 i32) (result i32))))' },
      400,
      'wasm-invalid',
      /the only import provided is env\.log/,
      { stage: 'instantiate' },
    ],
    [
      'wat',
      { body: '(module (func (export "main") unreachable))' },
      500,
      'wasm-trap',
      /^WebAssembly entry point 'main' trapped: unreachable/,
      { stage: 'execution', entryPoint: 'main', recovery: "Correct the module's execution path.", retryable: false },
    ],
    [
      'wat',
      { body: '(module (memory 1) (func (export "run") (result i32) (i32.load (i32.const 70000))))' },
      500,
      'wasm-trap',
      /out of bounds/,
      { entryPoint: 'run' },
    ],
    [
      'wat',
      { body: '(module (func $f (call $f)) (start $f))' },
      500,
      'wasm-trap',
      /^WebAssembly start function trapped: Maximum call stack/,
      { entryPoint: null },
    ],
    ['wasm', { body: 'not base64!' }, 400, 'wasm-invalid', /not base64/, { stage: 'instantiate' }],
    [
      'wasm',
      { body: 'AAECAwQF' },
      400,
      'wasm-invalid',
      /^The WebAssembly module could not be instantiated: /,
      { stage: 'instantiate' },
    ],
    [
      'wat',
      { target: 'missing.wat' },
      404,
      'wasm-read-failed',
      /^WebAssembly could not read '.*missing\.wat': ENOENT/,
      { stage: 'read', errorCode: 'ENOENT', recovery: 'Use a readable module target.', retryable: false },
    ],
    [
      'wasm',
      { target: 'folder' },
      500,
      'wasm-read-failed',
      /^WebAssembly could not read '.*folder': EISDIR/,
      { stage: 'read', errorCode: 'EISDIR' },
    ],
  ])('%s %j fails with %d %s', async (tag, fields, status, code, detail, extensions) => {
    const run = await runTag(tag, { ...fields, cwd: dir });
    expect([run.result.status, problemCodeOf(run.result)]).toEqual([status, code]);
    expect(run.result.problem?.detail).toMatch(detail);
    expect(run.result.problem).toMatchObject({ runtime: tag, ...extensions });
    expect(run.channel('results')).toMatchObject({ state: 'errored', text: '' });
  });

  it('a read failure names the resolved module path in its target extension', async () => {
    const run = await runTag('wat', { target: 'missing.wat', cwd: dir });
    expect(run.result.problem?.target).toBe(join(dir, 'missing.wat'));
  });

  it('a trap carries what the module logged before it', async () => {
    const body =
      '(module (import "env" "log" (func $log (param i32))) (func (export "main") (call $log (i32.const 5)) unreachable))';
    const run = await runTag('wat', { body });
    expect(run.result.problem).toMatchObject({ status: 500, log: [5] });
  });

  it('is pure without a target and read with one', async () => {
    for (const tag of ['wat', 'wasm']) {
      const executor = await executorFor(tag);
      expect([executor.effect(null), executor.effect('module.bin')]).toEqual(['pure', 'read']);
    }
  });

  it('a pre-aborted run is 499 cancelled', async () => {
    const controller = new AbortController();
    controller.abort();
    const run = await runTag('wat', { body: ANSWER, signal: controller.signal });
    expect([run.result.status, problemCodeOf(run.result)]).toEqual([499, 'cancelled']);
    expect(run.result.problem).toMatchObject({
      detail: 'WebAssembly execution was cancelled.',
      runtime: 'wat',
      stage: 'execution',
      retryable: false,
    });
    expect(run.channel('results').state).toBe('errored');
  });

  it('both tags are available', async () => {
    expect(await (await executorFor('wat')).probe()).toEqual({ available: true, detail: 'wabt 1.0.39' });
    expect(await (await executorFor('wasm')).probe()).toMatchObject({
      available: true,
      detail: expect.stringMatching(/^WebAssembly in V8 /),
    });
  });
});

describe('wasm linear memory cap', () => {
  it('refuses a module whose initial memory exceeds the default 64 MiB cap', async () => {
    const run = await runTag('wat', { body: '(module (memory 1025))' });
    expect([run.result.status, problemCodeOf(run.result)]).toEqual([400, 'wasm-memory-limit']);
    expect(run.result.problem?.detail).toBe(
      'memory 0 starts at 1025 pages (64.0625 MiB); the cap is 1024 pages (64 MiB)',
    );
    expect(run.result.problem?.recovery).toMatch(/PLURNK_EXECS_WASM_MAX_MEMORY_MB/);
  });

  it.each([
    ['without a declared maximum', '(memory 1)'],
    ['with a larger declared maximum', '(memory 1 60000)'],
  ])('caps growth of a memory %s: memory.grow past the cap returns -1', async (_, memory) => {
    const body = `(module (import "env" "log" (func $log (param i32))) ${memory}
      (func (export "main") (call $log (memory.grow (i32.const 1023))) (call $log (memory.grow (i32.const 1)))))`;
    expect(((await output('wat', { body })) as { log: unknown }).log).toEqual([1, -1]);
  });

  // The cap is read from the executor thread's environment: a run's env is that environment.
  const cap = (value: string) => ({ PLURNK_EXECS_WASM_MAX_MEMORY_MB: value });

  it('takes the cap from PLURNK_EXECS_WASM_MAX_MEMORY_MB', async () => {
    expect((await runTag('wat', { body: '(module (memory 17))', env: cap('1') })).result.problem?.detail).toBe(
      'memory 0 starts at 17 pages (1.0625 MiB); the cap is 16 pages (1 MiB)',
    );
    expect(
      ((await output('wat', { body: '(module (memory (export "m") 16))', env: cap('1') })) as { exports: unknown })
        .exports,
    ).toEqual([]);
  });

  it("reaches the leaf's threads from the operator's environment, which the host otherwise filters", async () => {
    const host = await createHost({
      packageDirs: [join(LEAVES_DIR, 'wasm')],
      env: { ...process.env, PLURNK_EXECS_WASM_MAX_MEMORY_MB: '1' },
    });
    try {
      const out = await host.exec({ runtime: 'wat', body: '(module (memory 17))' });
      expect(out.result.problem?.detail).toBe('memory 0 starts at 17 pages (1.0625 MiB); the cap is 16 pages (1 MiB)');
    } finally {
      await host.close();
    }
  });

  it('bounds a binary module the same way', async () => {
    const binary = await assemble('(module (memory 2000))');
    const run = await runTag('wasm', { body: Buffer.from(binary).toString('base64'), env: cap('1') });
    expect(problemCodeOf(run.result)).toBe('wasm-memory-limit');
  });

  it.each(['0', '-1', 'lots', '5000'])('a malformed cap %j is 500 invalid-configuration', async (value) => {
    const run = await runTag('wat', { body: ANSWER, env: cap(value) });
    expect([run.result.status, problemCodeOf(run.result)]).toEqual([500, 'invalid-configuration']);
    expect(run.result.problem?.detail).toContain('PLURNK_EXECS_WASM_MAX_MEMORY_MB');
  });
});

describe('boundMemory', () => {
  type Bound = (bytes: Uint8Array, capPages: number) => { kind: string; bytes?: Uint8Array; detail?: string };
  const load = async () =>
    ((await import('@plurnk/plurnk-execs-wasm')) as unknown as { boundMemory: Bound }).boundMemory;

  it('copies a module without a memory section byte for byte', async () => {
    const bytes = Buffer.from(ANSWER_BASE64, 'base64');
    const bounded = (await load())(bytes, 16);
    expect(bounded.kind).toBe('bounded');
    expect(Buffer.from(bounded.bytes!).equals(bytes)).toBe(true);
  });

  it('rewrites only the memory limits, so the module still compiles and exports the same', async () => {
    const bytes = await assemble('(module (memory (export "m") 2) (func (export "main") (result i32) i32.const 1))');
    const bounded = (await load())(bytes, 16);
    expect(bounded.kind).toBe('bounded');
    expect(bounded.bytes!.length).toBe(bytes.length + 1);
    await writeFile(join(dir, 'bounded.wasm'), bounded.bytes!);
    expect(await output('wasm', { target: 'bounded.wasm', cwd: dir })).toEqual({
      returned: 1,
      log: [],
      exports: ['main'],
    });
  });

  it('calls bytes that are not a module malformed instead of throwing', async () => {
    expect((await load())(Uint8Array.of(1, 2, 3, 4, 5, 6, 7, 8, 9), 16).kind).toBe('malformed');
  });
});

describe('wasm that never returns', () => {
  it('is stopped by the host ending its thread, and the next run works', async () => {
    const host = await hostFor('wasm');
    const out = await host.exec({
      runtime: 'wat',
      body: '(module (func (export "main") (loop (br 0))))',
      timeoutMs: 300,
    });
    expect([out.result.status, problemCodeOf(out.result)]).toEqual([504, 'execution-timeout']);
    expect(out.result.problem?.detail).toMatch(/worker thread was terminated/);
    expect(JSON.parse((await runTag('wat', { body: ANSWER })).channel('results').text)).toMatchObject({ returned: 42 });
  });
});
