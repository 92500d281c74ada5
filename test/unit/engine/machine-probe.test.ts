import { describe, expect, it } from 'vitest';
import { runProbe, runProbeSync, type Probe } from '../../../src/engine/machine-probe.js';
import { scratchDir } from '../../helpers/scratch.js';

// A detection is written once and run either way: blocking where an engine's command is first
// built, or ahead beside discovery. Both must see the same results, in the order it asked.

/** Asks one command, then two at once, and returns everything it saw. */
function* twoSteps(): Probe<{ status: number | null; stderr: string }[]> {
  const first = yield [{ file: 'sh', args: ['-c', 'echo first >&2; exit 3'] }];
  const [missing, ok] = yield [
    { file: 'plurnk-no-such-program', args: [] },
    { file: 'sh', args: ['-c', 'exit 0'] },
  ];
  return [first[0]!, missing!, ok!];
}

describe('a machine probe', () => {
  it('gets each command’s exit status and stderr, the same blocking or not', async () => {
    const blocking = runProbeSync(twoSteps());
    const ahead = await runProbe(twoSteps());
    expect(blocking[0]).toEqual({ status: 3, stderr: 'first\n' });
    expect(blocking[2]).toEqual({ status: 0, stderr: '' });
    // A program that is not there never exits 0, and says why.
    expect(blocking[1]!.status).not.toBe(0);
    expect(blocking[1]!.stderr).toContain('ENOENT');
    expect(ahead[0]).toEqual(blocking[0]);
    expect(ahead[2]).toEqual(blocking[2]);
    expect(ahead[1]!.status).not.toBe(0);
    expect(ahead[1]!.stderr).toContain('ENOENT');
  });

  it('runs the commands yielded together at once when it does not block', async () => {
    // Each marks its start and exits 0 only once it saw the other's mark (within ~5 s): run one
    // after the other, the first gives up.
    const dir = scratchDir('plurnk-probe-together');
    const meet = (own: string, other: string) => ({
      file: 'sh',
      args: [
        '-c',
        `touch ${dir}/${own}; i=0; while [ ! -e ${dir}/${other} ] && [ $i -lt 500 ]; do sleep 0.01; i=$((i+1)); done; [ -e ${dir}/${other} ]`,
      ],
    });
    function* together(): Probe<(number | null)[]> {
      const results = yield [meet('a', 'b'), meet('b', 'a')];
      return results.map((ran) => ran.status);
    }
    expect(await runProbe(together())).toEqual([0, 0]);
  });
});
