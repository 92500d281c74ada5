import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

import { expectContained, zooDirs, zooHost } from '../../helpers/zoo.js';

const KiB = 1024;
const SMALL_HEAP_HOST = fileURLToPath(new URL('../../helpers/small-heap-host.mjs', import.meta.url));

// Everything a leaf can put into an outcome is held to a stated budget, not only channel text.
describe('the zoo: budgets on everything a leaf puts into its outcome', () => {
  const host = zooHost({
    packageDirs: zooDirs('healthy', 'oversized-leaf-values'),
    breaker: { crashes: 1000 },
    limits: { graceMs: 300 },
  });

  it('holds violation texts, per-write mimetypes, notices and the Problem to their budgets', async () => {
    const out = await expectContained(host(), {
      runtime: 'oversized-leaf-values',
      problem: 'exec/executor-invalid-result',
      status: 500,
      kept: 'before the fault',
      next: { body: 'ok' },
    });
    expect(out.result.problem?.detail).toMatch(
      /^run\(\) resolved a Problem of \d+ bytes \(detail and extensions\), over limits\.problemBytes 65536$/,
    );
    // Violation texts: each cut to 1 KiB, together within limits.violationBytes (64 KiB).
    expect(out.violations.every((v) => v.detail.length <= KiB)).toBe(true);
    expect(out.violations.map((v) => v.detail).join('').length).toBeLessThanOrEqual(64 * KiB + 64);
    expect(out.violations).toHaveLength(8 + 8 + 1);
    expect(out.violations[0]).toMatchObject({
      kind: 'undeclared-channel',
      detail: expect.stringMatching(/^write to undeclared channel "x{50,}…/) as string,
    });
    // Mimetypes over 255 characters are refused: no part holds one.
    expect(out.channels.out!.parts.map((part) => part.mimetype)).toEqual(['text/plain']);
    // Notices: within limits.noticeBytes (1 MiB): four of the eight 256 KiB notices fit.
    expect(out.notices.reduce((sum, notice) => sum + (notice.message ?? '').length, 0)).toBeLessThanOrEqual(KiB * KiB);
    expect(JSON.stringify(out).length).toBeLessThan(256 * KiB + KiB * KiB);
  }, 120_000);

  it('keeps a host with a 160 MB heap alive through 60 notices of 8 MiB', async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--max-old-space-size=160', SMALL_HEAP_HOST, zooDirs('oversized-leaf-values')[0]!, 'notices'],
      { maxBuffer: 4 * 1024 * 1024 },
    );
    const summary = JSON.parse(stdout) as { status: number; notices: number; violations: unknown[] };
    expect(summary).toMatchObject({ status: 200, notices: 0 });
    expect(summary.violations).toEqual([
      {
        kind: 'notice-limit',
        // The message, plus source 'zoo' and kind 'oversized'.
        detail: 'emit: notices past limits.noticeBytes 1048576 are dropped (the first was 8388620 bytes)',
      },
    ]);
  }, 120_000);
});
