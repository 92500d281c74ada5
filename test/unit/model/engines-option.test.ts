import { describe, expect, it } from 'vitest';
import { resolveHostOptions } from '../../../src/model/host-options.js';

describe('the engines option', () => {
  it('resolves to the groups given, copied', () => {
    const shared = [['@acme/a', 'b']];
    const resolved = resolveHostOptions({ engines: { shared } });
    expect(resolved.engines).toEqual({ shared: [['@acme/a', 'b']] });
    expect(resolved.engines.shared[0]).not.toBe(shared[0]);
  });

  it.each([
    [
      {
        shared: [
          ['a', 'b'],
          ['c', 'a'],
        ],
      },
      /engines\.shared: package "a" is named more than once in engines\.shared/,
    ],
    [{ shared: [['a', 'a']] }, /package "a" is named more than once/],
    [
      { shared: [['lonely']] },
      /engines\.shared\.0: a group of engines\.shared names two packages or more, not \["lonely"\]/,
    ],
    [{ shared: [['a', 'not a name']] }, /engines\.shared\.0\.1: "not a name" is not a package name/],
    [{ grouped: [] }, /engines\.grouped: unknown key "grouped"; the allowed keys are shared/],
  ])('rejects %j, naming the package or the field', (engines, message) => {
    expect(() => resolveHostOptions({ engines } as never)).toThrow(message);
  });
});
