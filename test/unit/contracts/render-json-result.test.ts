import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { renderJsonResult } from '../../../src/index.js';

describe('renderJsonResult', () => {
  it('puts each item of a top-level array of two or more on its own line', () => {
    expect(renderJsonResult([{ a: 1 }, 'x\ny', [2, 3]])).toBe('[\n{"a":1},\n"x\\ny",\n[2,3]\n]');
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

  it('refuses undefined and other values without JSON', () => {
    expect(() => renderJsonResult(undefined)).toThrow(TypeError);
    expect(() => renderJsonResult(() => 1)).toThrow(TypeError);
  });

  it('re-parses to the same value for arbitrary JSON, with one physical line per item', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = renderJsonResult(value);
        expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(value)));
        const lines = text.split('\n');
        if (Array.isArray(value) && value.length >= 2) expect(lines).toHaveLength(value.length + 2);
        else expect(lines).toHaveLength(1);
      }),
      { numRuns: 2000 },
    );
  });
});
