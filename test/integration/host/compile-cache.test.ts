import * as nodeModule from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootHost, type Host } from '../../../src/host/index.js';
import { fixtureDiscovery } from '../../helpers/fixture-discovery.js';

// Node ≥ 22.1 can keep V8's code cache on disk; an executor thread turns it on before it
// imports the task handler and the leaf, so later threads skip most of their compilation. On
// a Node without the API the thread compiles as before (it is a speed knob, not a feature).
const { getCompileCacheDir } = nodeModule as unknown as { getCompileCacheDir?: () => string | undefined };
const hasApi = getCompileCacheDir !== undefined;

describe('the compile cache of executor threads', () => {
  let host: Host;
  beforeAll(async () => {
    host = await bootHost(fixtureDiscovery(['exec-compile-cache']), { recycle: 'never' });
  });
  afterAll(() => host.close());

  it(`is on in a leaf's thread where Node has it (${process.version}: ${hasApi ? 'has' : 'has not'})`, async () => {
    const out = await host.exec({ runtime: 'compile-cache', body: 'x' });
    expect(out.result).toEqual({ status: 200 });
    const dir = out.channels.out!.text;
    if (hasApi) expect(dir).toMatch(/node-compile-cache|\//);
    else expect(dir).toBe('none');
    // The host's own process is the service's: the thread's setting never leaks into it.
    if (hasApi) expect(getCompileCacheDir!()).toBeUndefined();
  });
});
