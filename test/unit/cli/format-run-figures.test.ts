import { describe, expect, it } from 'vitest';
import type { RunFigures } from '../../../src/check/check-report.js';
import { formatRunFigures } from '../../../src/cli/format-run-figures.js';

const FIGURES: RunFigures = {
  run: 'first',
  outcome: 'ok',
  status: 200,
  wallMs: 312,
  memory: { threadPeakBytes: 11_010_048, childrenPeakBytes: 1_781_760 },
  processes: { started: 1, left: 0, escaped: 0 },
  files: { created: 2, changed: 0, removed: 0, paths: ['+one.txt', '+two.txt'] },
  consoleBytes: 0,
  sinks: { messages: 1, bytes: 33 },
  violations: {},
  sandbox: null,
};

describe('one run’s figures as a line of the check table', () => {
  it('says every figure in order', () => {
    expect(formatRunFigures(FIGURES)).toBe(
      '312 ms · thread 10.5 MiB · children 1.7 MiB · processes 1 started, 0 left · files +2 ~0 -0 · console 0 B · sinks 1 msg 33 B · violations 0',
    );
  });

  it('marks what was not measured with a dash, and names escaped processes and violations by kind', () => {
    const line = formatRunFigures({
      ...FIGURES,
      memory: { threadPeakBytes: null, childrenPeakBytes: 500_000 },
      processes: { started: null, left: 2, escaped: 1 },
      files: null,
      violations: { 'undeclared-channel': 2, 'console-output': 1 },
    });
    expect(line).toBe(
      '312 ms · thread - · children 488 KiB · processes - started, 2 left (1 escaped) · files - · console 0 B · sinks 1 msg 33 B · violations 3 (undeclared-channel 2, console-output 1)',
    );
  });

  it('says what the engine’s sandbox refused only when it refused something', () => {
    const refused = (forksRefused: number, oomKills: number) =>
      formatRunFigures({ ...FIGURES, sandbox: { forksRefused, oomKills } })
        .split(' · ')
        .slice(8);
    expect(refused(0, 0)).toEqual([]);
    expect(refused(12, 1)).toEqual(['sandbox refused 12 forks, 1 OOM kill']);
  });
});
