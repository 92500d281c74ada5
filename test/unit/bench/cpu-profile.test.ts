import { describe, expect, it } from 'vitest';
import { summarizeProfiles, type CpuProfile } from '../../../src/bench/profile/cpu-profile.js';

const ROOT = 'file:///pkg/';

/** A profile whose samples are `[node id, µs since the previous sample]`, starting at 1000 µs. */
function profile(frames: Record<number, [string, string]>, samples: [number, number][]): CpuProfile {
  return {
    nodes: Object.entries(frames).map(([id, [functionName, url]]) => ({
      id: Number(id),
      callFrame: { functionName, url, lineNumber: 9 },
    })),
    samples: samples.map(([id]) => id),
    timeDeltas: samples.map(([, micros]) => micros),
    startTime: 1000,
  };
}

const FRAMES: Record<number, [string, string]> = {
  1: ['(idle)', ''],
  2: ['executeRun', 'file:///pkg/dist/host/dispatch/execute-run.js'],
  3: ['postMessage', ''],
  4: ['parse', 'file:///pkg/node_modules/valibot/dist/index.js'],
  5: ['run', 'file:///pkg/src/leaves/jq/dist/index.js'],
  6: ['(garbage collector)', ''],
};

describe('summarizeProfiles', () => {
  it('shares self time by function and area, with the V8 buckets apart, over merged profiles', () => {
    const summary = summarizeProfiles(
      [
        profile(FRAMES, [
          [1, 400],
          [2, 200],
          [3, 100],
        ]),
        profile(FRAMES, [
          [4, 100],
          [5, 100],
          [6, 100],
        ]),
      ],
      ROOT,
    );
    expect(summary.totalMs).toBe(1);
    expect(summary).toMatchObject({ idle: 0.4, gc: 0.1 });
    expect(summary.functions.map((row) => [row.name, row.share])).toEqual([
      ['executeRun dist/host/dispatch/execute-run.js:10', 0.2],
      ['postMessage (native):10', 0.1],
      ['parse node_modules/valibot/dist/index.js:10', 0.1],
      ['run src/leaves/jq/dist/index.js:10', 0.1],
    ]);
    expect(summary.areas.map((row) => row.name).sort()).toEqual(
      ['(native)', 'dist/host', 'node_modules/valibot', 'src/leaves/jq'].sort(),
    );
  });

  it('counts only the samples stamped inside one of the windows', () => {
    // Stamps: 1100, 1300, 1600.
    const one = profile(FRAMES, [
      [2, 100],
      [3, 200],
      [4, 300],
    ]);
    const summary = summarizeProfiles([one], ROOT, [{ from: 1200, to: 1500 }]);
    expect(summary.totalMs).toBe(0.2);
    expect(summary.functions.map((row) => row.name)).toEqual(['postMessage (native):10']);
  });
});
