import { describe, expect, it } from 'vitest';
import { ThreadTable, type ThreadEntry } from '../../../../src/thread-host/threads/thread-table.js';
import type { WorkerHandle } from '../../../../src/thread-host/threads/worker-handle.js';

/** A table of stand-in threads: only `runs` is read by what is tested here. */
function table(rows: [runs: number, state: ThreadEntry['state']][]): ThreadTable {
  const threads = new ThreadTable();
  for (const [runs, state] of rows) threads.set({ runs } as WorkerHandle, { state, lentToRun: state === 'busy' });
  return threads;
}

describe('ThreadTable', () => {
  it('lists the threads in a state in the order they were set, and the idle ones that never ran as spares', () => {
    const threads = table([
      [0, 'idle'],
      [3, 'busy'],
      [2, 'idle'],
      [0, 'busy'],
      [0, 'idle'],
    ]);
    expect(threads.inState('idle').map((handle) => handle.runs)).toEqual([0, 2, 0]);
    expect(threads.inState('busy').map((handle) => handle.runs)).toEqual([3, 0]);
    expect(threads.spares()).toHaveLength(2);
  });

  it.each([
    ['nothing wanted and a spare idle: one too many', [[0, 'idle']], 0, -1],
    ['one run wanted and no thread idle: one spare missing', [[4, 'busy']], 1, 1],
    ['one run wanted and a spare idle: none missing', [[0, 'idle']], 1, 0],
    [
      'three runs wanted, a used thread idle (it runs again) and one spare: one missing',
      [
        [2, 'idle'],
        [0, 'idle'],
      ],
      3,
      1,
    ],
    [
      'busy threads are no spares: four wanted, none idle',
      [
        [0, 'busy'],
        [1, 'busy'],
      ],
      4,
      4,
    ],
  ] as const)('counts the spares missing: %s', (_name, rows, wanted, missing) => {
    expect(table(rows.map(([runs, state]) => [runs, state])).sparesMissing(wanted)).toBe(missing);
  });
});
