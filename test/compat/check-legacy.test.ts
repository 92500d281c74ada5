// `plurnk-execs check` on a leaf whose manifest is in the shape published up to 1.5: clean,
// and the legacy reading is reported, never silent.
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';
import { checkPackage } from '../../src/check/index.js';
import { renderCheck } from '../../src/cli/render-check.js';

const OLDSTYLE = fileURLToPath(
  new URL('../../fixtures/compat/node_modules/@acme/plurnk-execs-oldstyle', import.meta.url),
);

test('a ≤1.5 manifest checks clean, with the discovery notice in the report and the text', async () => {
  const report = await checkPackage(OLDSTYLE);
  expect(report.clean).toBe(true);
  expect(report.tags.map((tag) => [tag.tag, tag.verdict])).toEqual([
    ['oldgit', 'ok'],
    ['oldsh', 'ok'],
    // A glyph-only tag has only a signature: nothing to run.
    ['oldglyph', 'not-run'],
    ['oldscript', 'ok'],
  ]);
  expect(report.discovery.notices).toHaveLength(1);
  expect(report.discovery.notices[0]).toContain('"oldgit", "oldsh", "oldglyph"');
  expect(renderCheck(report)).toContain('notice: package "@acme/plurnk-execs-oldstyle" declares');
});
