import { describe, expect, it } from 'vitest';
import { guardArgs } from '../../../src/worker/args-guard.js';
import { capWrites } from '../../../src/worker/output-cap.js';
import { recordingArgs } from '../../helpers/recording-args.js';
import { namedError } from '../../helpers/named-error.js';

describe('guardArgs', () => {
  it('reads through to the args, their env and their sinks', () => {
    const { args, recording } = recordingArgs({ runtime: 'sh', body: 'echo', env: { PATH: '/bin' } });
    const guarded = guardArgs(args, () => {});
    expect([guarded.body, guarded.env?.PATH, Object.keys(guarded.env!)]).toEqual(['echo', '/bin', ['PATH']]);
    guarded.write('stdout', 'x');
    expect(recording.text('stdout')).toBe('x');
  });

  it.each([
    ['set', (a: Record<string, unknown>) => void (a.body = 'changed'), 'run() tried to set args.body'],
    ['add', (a: Record<string, unknown>) => void (a.extra = 1), 'run() tried to set args.extra'],
    ['delete', (a: Record<string, unknown>) => void delete a.target, 'run() tried to delete args.target'],
    [
      'define',
      (a: Record<string, unknown>) => void Object.defineProperty(a, 'cwd', { value: '/' }),
      'run() tried to define args.cwd',
    ],
    [
      'change env',
      (a: Record<string, unknown>) => void ((a.env as Record<string, string>).HOME = '/'),
      'run() tried to set args.env.HOME',
    ],
  ])('refuses to %s, reporting and throwing forbidden', (_what, mutate, message) => {
    const { args } = recordingArgs({ runtime: 'sh', env: {} });
    const reports: string[] = [];
    const guarded = guardArgs(args, (report) => void reports.push(report));
    namedError(() => mutate(guarded as unknown as Record<string, unknown>), 'forbidden');
    expect(reports).toEqual([expect.stringContaining(message)]);
  });
});

describe('capWrites', () => {
  it('passes writes until the cap, cuts the crossing one on a character, drops the rest and says so once', () => {
    const writes: string[] = [];
    let exceeded = 0;
    const write = capWrites(
      (_channel, chunk) => void writes.push(chunk),
      6,
      () => void exceeded++,
    );
    write('out', 'abc');
    write('err', 'd€x');
    write('out', 'more');
    expect(writes).toEqual(['abc', 'd']);
    expect(exceeded).toBe(1);
  });

  it('lets a chunk that is not a string through for the host to refuse', () => {
    const writes: unknown[] = [];
    const write = capWrites(
      (_channel, chunk) => void writes.push(chunk),
      1,
      () => {},
    );
    write('out', 42 as unknown as string);
    expect(writes).toEqual([42]);
  });
});
