import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { descendants, descendantsRss } from '../../../src/bench/descendants.js';
import { createHost } from '../../../src/host/index.js';
import { enginePids } from '../../helpers/engine-pids.js';

const COMMON = fileURLToPath(new URL('../../../src/leaves/common', import.meta.url));

// The load and orphans scenarios count a process-tier host's memory as the service's plus its
// engines': the engine holds every executor thread, so the service's RSS alone says little.
describe("a process-tier host's engine among this process's descendants", () => {
  it('finds the engine the host started, with its resident memory, and none once the host closed', async () => {
    const host = await createHost({ isolation: 'process', packageDirs: [COMMON] });
    try {
      const out = await host.exec({ runtime: 'sh', body: 'echo hi' });
      expect(out.result.status).toBe(200);
      const engines = descendants().filter((process) => process.engine);
      expect(engines.map((process) => process.pid)).toEqual(enginePids().engine);
      // A warm engine is a Node process with a thread that ran a leaf: well above a shell's few MB.
      expect(engines[0]!.rssBytes).toBeGreaterThan(20 * 1024 * 1024);
      // Only the engine counts (not unshare or the init, whose command lines name the script too).
      expect(descendantsRss().engines).toBeGreaterThan(20 * 1024 * 1024);
    } finally {
      await host.close();
    }
    expect(descendantsRss().engines).toBe(0);
  });
});
