import { describe, expect, it } from 'vitest';
import { DEFAULT_KILL_GRACE_MS, planCancel } from '../../../src/index.js';

describe('planCancel', () => {
  it.each([
    ['a signal name', { signal: 'SIGUSR1' }, { kind: 'signal', signal: 'SIGUSR1' }],
    ['a signal number', { signal: 15 }, { kind: 'signal', signal: 15 }],
    ['a null signal', { signal: null }, { kind: 'hangup' }],
    ['an unknown signal name', { signal: 'SIGNOPE' }, { kind: 'hangup' }],
    ['a plain abort', undefined, { kind: 'hangup' }],
    ['a DOMException reason', new DOMException('aborted', 'AbortError'), { kind: 'hangup' }],
    ['a string reason', 'stop', { kind: 'hangup' }],
    ['housekeeping with a grace', { housekeeping: true, graceMs: 50 }, { kind: 'housekeeping', graceMs: 50 }],
    ['housekeeping without a grace', { housekeeping: true }, { kind: 'housekeeping', graceMs: DEFAULT_KILL_GRACE_MS }],
    [
      'housekeeping with a negative grace',
      { housekeeping: true, graceMs: -5 },
      { kind: 'housekeeping', graceMs: DEFAULT_KILL_GRACE_MS },
    ],
  ])('reads %s', (_name, reason, plan) => {
    expect(planCancel(reason)).toEqual(plan);
  });
});
