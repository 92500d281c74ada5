import { describe, expect, it } from 'vitest';
import { benchFlood } from '../../../src/bench/scenarios/flood.js';

// The flood row's control must have its subject's shape: the same number of no-op EXECs, in
// groups one after another, each group's first after its thread sat idle. Timing one EXEC beside
// each flood against EXECs back to back alone measured a woken thread's idle as the flood's cost.
describe('the flood scenario', () => {
  it('times as many no-op EXECs alone as beside the floods, a group of three per flood, in both tiers', async () => {
    const progress: string[] = [];
    const report = await benchFlood({
      quick: true,
      cwd: process.cwd(),
      isolation: 'process',
      progress: (line) => progress.push(line),
    });
    expect(report.rows.map((row) => row.name)).toEqual([
      "thread tier: no-op EXEC beside another tag's flood (200000 × 1-char writes)",
      "process tier: no-op EXEC beside another tag's flood (200000 × 1-char writes)",
    ]);
    for (const row of report.rows) {
      // Six floods in a quick run, three EXECs beside each and three alone before it.
      expect(row.subject.samples).toBe(18);
      expect(row.baseline?.stat.samples).toBe(18);
      expect(row.ratio).toBeCloseTo(row.subject.median / row.baseline!.stat.median, 10);
      expect(row.target).toMatchObject({ op: '<=', value: 2 });
    }
    expect(progress).toEqual([
      'flood (thread): 3 no-op EXECs alone, then beside 200000 one-character writes, 6 times',
      'flood (process): 3 no-op EXECs alone, then beside 200000 one-character writes, 6 times',
    ]);
    for (const tier of ['thread', 'process'])
      expect(report.notes).toContainEqual(
        expect.stringMatching(
          new RegExp(
            `^${tier} tier: a flood ran \\d+ ms \\(median\\); \\d of 6 groups beside it ended after it\\. The first EXEC of a group, after its thread sat idle: \\d+\\.\\d\\d ms alone, \\d+\\.\\d\\d ms beside\\.$`,
          ),
        ),
      );
  }, 120_000);
});
