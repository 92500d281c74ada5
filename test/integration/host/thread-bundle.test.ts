import { execFile } from 'node:child_process';
import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHost, type Host } from '../../../src/host/index.js';
import { scratchDir } from '../../helpers/scratch.js';
import { zooDirs } from '../../helpers/zoo.js';

const BUNDLE = new URL('../../../dist/worker/thread-root.js', import.meta.url).href;
const ROOT = new URL('../../../dist/index.js', import.meta.url).href;
const HOST = new URL('../../../dist/host/index.js', import.meta.url).href;

// An executor thread starts with the `plurnk-execs-thread` condition while the bundle of its
// start path is built and fresh (thread-host/threads/thread-bundle.ts): its task handler comes from
// dist/worker/thread-root.js, and its leaf must get the very same module for the framework, or
// the two would hold separate copies (the error a guard throws would be no PlurnkExecsError to
// the leaf, a process group it reports would reach nobody). In the process tier the engine's
// flags (Node's permission model) go to the thread as well.
describe.each(['thread', 'process'] as const)("an executor thread's start path (%s tier)", (isolation) => {
  let host: Host;
  beforeAll(async () => {
    host = await createHost({ isolation, recycle: 'never', packageDirs: zooDirs('host/exec-framework-copy') });
  });
  afterAll(() => host.close());

  it('gives the leaf the bundled framework its task handler and guards run on', async () => {
    const out = await host.exec({ runtime: 'framework-copy', body: 'x' });
    expect(out.result).toEqual({ status: 200 });
    expect(JSON.parse(out.channels.out!.text)).toEqual({ framework: BUNDLE, shared: true });
  });
});

// A leaf outside any node_modules that holds this package (a linked local leaf) gets the
// framework through the resolve hook (worker/framework-resolve-hook.ts), under the thread's
// conditions: the same bundle.
describe('a linked local leaf in a thread started on the bundle', () => {
  it('gets the bundled framework too', async () => {
    const dir = join(scratchDir('linked-leaf'), 'exec-framework-copy');
    cpSync(zooDirs('host/exec-framework-copy')[0]!, dir, { recursive: true });
    const host = await createHost({ isolation: 'thread', packageDirs: [dir] });
    try {
      const out = await host.exec({ runtime: 'framework-copy', body: 'x' });
      expect(JSON.parse(out.channels.out!.text)).toEqual({ framework: BUNDLE, shared: true });
    } finally {
      await host.close();
    }
  });
});

// A flag that holds the whole process (--max-old-space-size) cannot be given to a thread: Node
// refuses such an execArgv, and the host starts its threads on the modules one by one instead.
describe('a host whose own flags a thread cannot take', () => {
  it('starts its threads without the bundle, the leaf and the task handler still sharing one framework', async () => {
    const script = `
      const { createHost } = await import(${JSON.stringify(HOST)});
      const host = await createHost({ isolation: 'thread', packageDirs: ${JSON.stringify(zooDirs('host/exec-framework-copy'))} });
      const out = await host.exec({ runtime: 'framework-copy', body: 'x' });
      await host.close();
      console.log(JSON.stringify({ status: out.result.status, out: JSON.parse(out.channels.out.text) }));`;
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--max-old-space-size=512', '--input-type=module', '-e', script],
      { timeout: 60_000 },
    );
    expect(JSON.parse(stdout)).toEqual({ status: 200, out: { framework: ROOT, shared: true } });
  });
});
