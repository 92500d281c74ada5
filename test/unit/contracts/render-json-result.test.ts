import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { renderJsonResult } from '../../../src/index.js';

describe('renderJsonResult', () => {
  it('starts a new line after each comma between the items of a top-level array (1.x layout)', () => {
    expect(renderJsonResult([1, 2, 3])).toBe('[1,\n2,\n3]');
    expect(renderJsonResult([{ a: 1, b: [2, 3] }, 'x,\ny', [2, 3]])).toBe('[{"a":1,"b":[2,3]},\n"x,\\ny",\n[2,3]]');
  });

  it.each([
    ['an empty array', [], '[]'],
    ['a one-item array', [{ a: [1, 2] }], '[{"a":[1,2]}]'],
    ['an object', { rows: [1, 2] }, '{"rows":[1,2]}'],
    ['a string', 'hi', '"hi"'],
    ['null', null, 'null'],
  ])('keeps %s on one line', (_name, value, text) => {
    expect(renderJsonResult(value)).toBe(text);
  });

  it('does not break at commas inside strings, escapes or nested values', () => {
    expect(renderJsonResult(['a\\",b', { c: ',' }, [',', ',']])).toBe('["a\\\\\\",b",\n{"c":","},\n[",",","]]');
  });

  it('honours a replacer: a BigInt becomes its decimal string', () => {
    const bigint = (_key: string, value: unknown) => (typeof value === 'bigint' ? value.toString() : value);
    expect(renderJsonResult([{ id: 2n ** 64n }, 1n], bigint)).toBe('[{"id":"18446744073709551616"},\n"1"]');
    expect(renderJsonResult({ a: 1, b: 2 }, ['a'])).toBe('{"a":1}');
    expect(() => renderJsonResult([1n])).toThrow(TypeError);
  });

  it('refuses undefined and other values without JSON, saying it must serialize to a JSON value', () => {
    expect(() => renderJsonResult(undefined)).toThrow(
      new TypeError('renderJsonResult: the value (undefined) must serialize to a JSON value'),
    );
    expect(() => renderJsonResult(() => 1)).toThrow(/must serialize to a JSON value/);
    expect(() => renderJsonResult(1, () => undefined)).toThrow(/must serialize to a JSON value/);
  });

  it('re-parses to the same value for arbitrary JSON, with one physical line per item', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = renderJsonResult(value);
        expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(value)));
        const lines = text.split('\n');
        if (Array.isArray(value) && value.length >= 2) expect(lines).toHaveLength(value.length);
        else expect(lines).toHaveLength(1);
      }),
      { numRuns: 2000 },
    );
  });
});
