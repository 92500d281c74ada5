import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadJq } from 'jq-wasm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHost } from '../../../../src/host/index.js';
import { executorFor, LEAVES_DIR, problemCodeOf, runInProcess, runTag } from '../leaf-harness.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'leaf-jq-'));
  await writeFile(join(dir, 'many.json'), '{"a":1}\n{"a":2}\n[3]\n');
  await writeFile(join(dir, 'broken.json'), '{"a":1}\n{"a":');
  await mkdir(join(dir, 'folder'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('jq leaf', () => {
  it.each([
    { body: '[1, 2, 3] | .[]', target: null, out: '1\n2\n3\n' },
    { body: '{"b": [1, {"c": "x\\ny"}]}', target: null, out: '{"b":[1,{"c":"x\\ny"}]}\n' },
    { body: 'empty', target: null, out: '' },
    { body: '.a? // "no a"', target: 'many.json', out: '1\n2\n"no a"\n' },
    { body: '', target: 'many.json', out: '{"a":1}\n{"a":2}\n[3]\n' },
    { body: '[inputs]', target: 'many.json', out: '[{"a":2},[3]]\n' },
  ])('$body on $target writes one compact value per line', async ({ body, target, out }) => {
    const run = await runTag('jq', { body, target, cwd: dir });
    expect(run.result).toEqual({ status: 200 });
    expect(run.channel('results')).toEqual({ mimetype: 'application/jsonl', state: 'closed', text: out });
  });

  it.each(['', '  \n'])('runs an empty program %j as the identity filter on null', async (body) => {
    const { result, recording } = await runInProcess(await executorFor('jq'), 'jq', { body });
    expect(result).toEqual({ status: 200 });
    expect(recording.text('results')).toBe('null\n');
  });

  it('is refused input-required by the host when neither a program nor a target is given', async () => {
    const run = await runTag('jq', { body: '  \n' });
    expect([run.result.status, problemCodeOf(run.result)]).toEqual([400, 'input-required']);
  });

  it('is pure without a target and read with one', async () => {
    const executor = await executorFor('jq');
    expect([executor.effect(null), executor.effect('many.json')]).toEqual(['pure', 'read']);
  });

  it('shows only the run env in $ENV and env, never the host process env', async () => {
    const run = await runTag('jq', { body: '[$ENV, env.A, $ENV.PATH]', env: { A: 'één', B: 'x' } });
    expect(JSON.parse(run.channel('results').text)).toEqual([{ A: 'één', B: 'x' }, 'één', null]);
    const bare = await runTag('jq', { body: '$ENV' });
    expect(bare.channel('results').text).toBe('{}\n');
  });

  it('keeps $__loc__ line numbers for a program that reads the env', async () => {
    const run = await runTag('jq', { body: '[$__loc__.line, env.A]', env: { A: '1' } });
    expect(run.channel('results').text).toBe('[1,"1"]\n');
  });

  it.each(['$ENV | .a |||', 'env | {(0): 1}', '.x as $v | env | $nope'])(
    'reports the compile error of %j exactly as jq does, env binding or not',
    async (program) => {
      const run = await runTag('jq', { body: program, env: { A: '1' } });
      const direct = (await loadJq()).raw('', program, ['-c', '-n']);
      expect(direct.exitCode).toBe(3);
      expect(run.result.status).toBe(500);
      expect(problemCodeOf(run.result)).toBe('jq-error');
      expect(run.result.problem?.detail).toBe(direct.stderr);
      expect(run.result.exitCode).toBe(3);
    },
  );

  it('a runtime error is 500 jq-error; values printed before it stay on the channel', async () => {
    const run = await runTag('jq', { body: '1, error("boom"), 2' });
    expect(run.result.exitCode).toBe(5);
    expect(run.result.problem).toMatchObject({
      status: 500,
      detail: 'jq: error (at <unknown>): boom',
      stage: 'execution',
      recovery: 'Correct the jq program or its input.',
      retryable: false,
    });
    expect(run.channel('results')).toMatchObject({ state: 'errored', text: '1\n' });
  });

  it('an input that is not JSON is a jq-error after the values before it', async () => {
    const run = await runTag('jq', { body: '.a', target: 'broken.json', cwd: dir });
    expect(problemCodeOf(run.result)).toBe('jq-error');
    expect(run.result.problem?.detail).toMatch(/parse error/);
    expect(run.channel('results').text).toBe('1\n');
  });

  it.each([
    ['missing.json', 404],
    ['folder', 400],
  ])('an unreadable target %s is jq-read-failed %d naming the path', async (target, status) => {
    const run = await runTag('jq', { body: '.', target, cwd: dir });
    expect(run.result.status).toBe(status);
    expect(problemCodeOf(run.result)).toBe('jq-read-failed');
    expect(run.result.problem?.detail).toContain(join(dir, target));
    expect(run.result.problem).toMatchObject({ path: join(dir, target), stage: 'read', retryable: false });
    expect(run.channel('results').state).toBe('errored');
  });

  it('has a stack for values nested 10 000 deep, as native jq does', async () => {
    // jq-wasm's own 1 MiB stack overflows near depth 800 here; the leaf enlarges it (jq-stack.ts).
    const deep = await runTag('jq', {
      body: 'reduce range(9999) as $_ ([]; [.]) | [(tojson | length), (flatten | length), ([., .] | sort | length)]',
    });
    expect(deep.result).toEqual({ status: 200 });
    // 10 000 arrays, one inside the other: 20 000 brackets.
    expect(deep.channel('results').text).toBe('[20000,0,2]\n');
  });

  it('jq-wasm aborting is a clear jq-aborted Problem, and the next run gets a fresh jq', async () => {
    // jq 1.8.2 refuses values deeper than 10 000 itself; unbounded recursion exhausts the
    // module's memory instead, and Emscripten aborts.
    const deep = await runTag('jq', { body: 'def f: [f]; f' });
    expect(deep.result.status).toBe(500);
    expect(problemCodeOf(deep.result)).toBe('jq-aborted');
    expect(deep.result.problem?.detail).toMatch(
      /^jq-wasm aborted: (memory access out of bounds|Aborted\(|Maximum call stack)/,
    );
    expect(deep.channel('results').state).toBe('errored');
    const next = await runTag('jq', { body: '[range(3)] | add' });
    expect(next.result).toEqual({ status: 200 });
    expect(next.channel('results').text).toBe('3\n');
  });

  it('an infinite filter is stopped by the host ending its thread, and the next run works', async () => {
    // The deadline must find jq running. A thread loads jq-wasm at its first run, and on a loaded
    // machine a fresh thread's load outlasted the 300 ms: the run settled within grace without
    // reaching jq. So the filter runs on a thread that already ran jq ('never' keeps it).
    const host = await createHost({ packageDirs: [join(LEAVES_DIR, 'jq')], recycle: 'never', probeTimeoutMs: 30_000 });
    try {
      expect((await host.exec({ runtime: 'jq', body: '1' })).result).toEqual({ status: 200 });
      const out = await host.exec({ runtime: 'jq', body: 'last(repeat(1))', timeoutMs: 300 });
      expect([out.result.status, problemCodeOf(out.result)]).toEqual([504, 'execution-timeout']);
      expect(out.result.problem?.detail).toMatch(/worker thread was terminated/);
      expect(out.channels.results?.state).toBe('errored');
      const next = await host.exec({ runtime: 'jq', body: '1 + 1' });
      expect(next.channels.results?.text).toBe('2\n');
    } finally {
      await host.close();
    }
  });

  it('debug output is a transient notice, not a failure', async () => {
    const run = await runTag('jq', { body: '1 | debug | . + 1' });
    expect(run.result).toEqual({ status: 200 });
    expect(run.channel('results').text).toBe('2\n');
    expect(run.notices).toEqual([{ source: 'executor:jq', kind: 'jq_stderr', level: 'info', message: '["DEBUG:",1]' }]);
  });

  it('a pre-aborted run is 499 cancelled and reads nothing', async () => {
    const controller = new AbortController();
    controller.abort();
    const run = await runTag('jq', { body: '.', target: 'missing.json', cwd: dir, signal: controller.signal });
    expect([run.result.status, problemCodeOf(run.result)]).toEqual([499, 'cancelled']);
    expect(run.result.problem).toMatchObject({
      detail: 'jq execution was cancelled.',
      stage: 'execution',
      retryable: false,
    });
    expect(run.channel('results').state).toBe('errored');
  });

  it('is available, reporting the jq version it loaded', async () => {
    expect(await (await executorFor('jq')).probe()).toEqual({
      available: true,
      detail: 'jq-1.8.2 (jq-wasm, stack +16 MiB)',
    });
  });
});
