import { describe, expect, it } from 'vitest';
import { bootHost } from '../../src/host/index.js';
import { fixtureDiscovery } from '../helpers/fixture-discovery.js';

const major = (version: string) => version.replace(/^v/, '').split('.')[0];

// .ci/run runs `npm test` on the machine's Node, then again with Node 26 first on PATH, and
// names the major it expects in PLURNK_EXECS_CI_NODE_MAJOR. Whatever Node runs the tests (and
// so the host's threads), the `node` a leaf finds on PATH from such a thread must be that one.
describe('the Node the tests run on', () => {
  it("is the one CI asked for, and the one a leaf's `node` child runs", async () => {
    const host = await bootHost(fixtureDiscovery(['exec-subprocess']));
    try {
      const out = await host.exec({ runtime: 'node', body: 'process.stdout.write(process.version)' });
      console.log(`tests run on Node ${process.version}; a leaf's node child: ${out.channels.stdout?.text}`);
      expect(out.result.status).toBe(200);
      expect(out.channels.stdout?.text).toBe(process.version);
      expect(major(process.version)).toBe(process.env.PLURNK_EXECS_CI_NODE_MAJOR ?? major(process.version));
    } finally {
      await host.close();
    }
  });
});
