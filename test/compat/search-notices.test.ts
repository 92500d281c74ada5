// The public 1.x search leaf emits progress notices with a `phase` key beside the 1.x notice
// members, and 1.x handed emit straight to the service. Through either tier the service's
// emit sink and the outcome get them whole, and their extra members count against
// limits.noticeBytes like the rest of a notice.
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createHost, type Host } from '../../src/host/index.js';
import type { Notice } from '../../src/index.js';

const FINDER = fileURLToPath(new URL('../../fixtures/compat/node_modules/@acme/plurnk-execs-finder', import.meta.url));

describe.each(['thread', 'process'] as const)('notices with extra members, %s tier', (isolation) => {
  let host: Host;
  beforeAll(async () => {
    // Room for the first notice and a small second one; a second one padded by 200 bytes is past it.
    host = await createHost({ packageDirs: [FINDER], isolation, limits: { noticeBytes: 160 } });
  });
  afterAll(async () => {
    await host?.close();
  });

  test("reach the service's emit sink and the outcome with their extra members", async () => {
    const emitted: Notice[] = [];
    const out = await host.exec({
      runtime: 'find',
      target: 'pages',
      body: '{"q":"plurnk"}',
      sinks: { emit: (notice) => emitted.push(notice) },
    });
    expect(out.result).toEqual({ status: 200 });
    const expected = [
      { source: 'search', kind: 'search_progress', level: 'info', message: 'searching plurnk', phase: 'query' },
      { source: 'search', kind: 'search_progress', level: 'info', phase: 'results', found: 2 },
    ];
    expect(out.notices).toEqual(expected);
    expect(emitted).toEqual(expected);
    expect(out.violations).toEqual([]);
  });

  test('count their extra members against limits.noticeBytes', async () => {
    const out = await host.exec({ runtime: 'find', target: 'pages', body: '{"q":"plurnk","pad":200}' });
    expect(out.result).toEqual({ status: 200 });
    expect(out.notices.map((notice) => notice.phase)).toEqual(['query']);
    expect(out.violations.map((violation) => violation.kind)).toEqual(['notice-limit']);
  });
});
