import { describe, expect, it } from 'vitest';
import { parseInitTitle, pidNamespaceId, underNamespaceInit } from '../../../src/engine/namespace-init.js';

describe('the namespace init’s title', () => {
  it.each([
    ['plurnk-execs-init reaped=0\0', 0],
    ['plurnk-execs-init reaped=40', 40],
    ['plurnk-execs-init reaped=123456789012345\0', 123456789012345],
    // The sh init: named among its arguments, it counts nothing.
    ['sh\0-c\0"$@" &\0plurnk-execs-init\0node\0engine-entry.js\0', undefined],
    ['plurnk-execs-init reaped=\0', undefined],
    ['plurnk-execs-init reaped=12x\0', undefined],
    ['plurnk-execs-init reaped=-1\0', undefined],
    ['plurnk-execs-init reaped=1234567890123456\0', undefined],
    ['xplurnk-execs-init reaped=1\0', undefined],
    ['plurnk-execs-init reaped=1\0extra\0', undefined],
    [`plurnk-execs-init reaped=1${'\0'.repeat(64)}`, undefined],
  ])('reads %j as %s', (cmdline, count) => {
    expect(parseInitTitle(cmdline)).toBe(count);
  });
});

describe('an engine’s check for its namespace and init', () => {
  it('never confirms a namespace this process shares with the service, or an unknown one', () => {
    // This test process runs in no namespace of an engine's own: nothing here may be swept.
    expect(pidNamespaceId()).toMatch(/^pid:\[\d+\]$/);
    expect(underNamespaceInit(pidNamespaceId())).toBeUndefined();
    expect(underNamespaceInit(null)).toBeUndefined();
  });
});
