import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const FLAGS = new URL('../../../dist/runtime/thread-flags.js', import.meta.url).href;

/**
 * Runs in a node started with `hostFlags`: starts a thread through startThreadWithFlags with
 * `extra`, and prints what the thread got as its flags (or what starting it threw).
 */
async function startUnder(hostFlags: string[], extra: string[]): Promise<{ execArgv?: string[]; threw?: string }> {
  const script = `
    import(${JSON.stringify(FLAGS)}).then(({ startThreadWithFlags }) => { try {
      const worker = startThreadWithFlags(
        'require("node:worker_threads").parentPort.postMessage(process.execArgv)',
        { eval: true },
        ${JSON.stringify(extra)},
      );
      worker.once('message', (execArgv) => { console.log(JSON.stringify({ execArgv })); worker.terminate(); });
    } catch (error) {
      console.log(JSON.stringify({ threw: error.code }));
    } });
  `;
  // From a file: \`-e\` and its script would be among the host's flags.
  const dir = mkdtempSync(join(tmpdir(), 'thread-flags-'));
  try {
    writeFileSync(join(dir, 'host.cjs'), script);
    const { stdout } = await run(process.execPath, [...hostFlags, join(dir, 'host.cjs')]);
    return JSON.parse(stdout) as { execArgv?: string[]; threw?: string };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('a thread started with flags of its own', () => {
  it("gets the host's flags and its own after them", async () => {
    expect(await startUnder(['--enable-source-maps'], ['--no-experimental-require-module'])).toEqual({
      execArgv: ['--enable-source-maps', '--no-experimental-require-module'],
    });
  });

  it('leaves out the flags of the host Node refuses for a thread (they hold the whole process), and keeps the rest', async () => {
    expect(
      await startUnder(
        ['--stack-trace-limit=7', '--enable-source-maps', '--expose-gc'],
        ['--no-experimental-require-module'],
      ),
    ).toEqual({ execArgv: ['--enable-source-maps', '--no-experimental-require-module'] });
  });

  it('throws when Node refuses a flag of its own', async () => {
    expect(await startUnder([], ['--expose-gc'])).toEqual({ threw: 'ERR_WORKER_INVALID_EXEC_ARGV' });
  });
});
