import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createOutputBudget, utf8Prefix } from '../../../src/contracts/output-budget.js';

describe('utf8Prefix', () => {
  it.each([
    ['abc', 2, 'ab'],
    ['aé', 2, 'a'],
    ['aé', 3, 'aé'],
    ['€€', 5, '€'],
    ['😀x', 3, ''],
    ['😀x', 4, '😀'],
    ['anything', 0, ''],
  ])('cuts %j to %i bytes as %j, never inside a character', (text, max, expected) => {
    expect(utf8Prefix(text, max)).toBe(expected);
  });

  it('always returns a prefix of the text that fits and that one more character would not', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), fc.nat(64), (text, max) => {
        const prefix = utf8Prefix(text, max);
        expect(text.startsWith(prefix)).toBe(true);
        expect(Buffer.byteLength(prefix)).toBeLessThanOrEqual(max);
        const next = [...text.slice(prefix.length)][0];
        if (next !== undefined) expect(Buffer.byteLength(prefix + next)).toBeGreaterThan(max);
      }),
    );
  });
});

describe('createOutputBudget', () => {
  it('takes whole chunks until one crosses the cap, keeps that one’s fitting prefix, then takes nothing', () => {
    const budget = createOutputBudget(10);
    expect(budget.take('12345')).toBe('12345');
    expect(budget.take('6789')).toBe('6789');
    expect(budget.exceeded).toBe(false);
    expect(budget.take('€€')).toBe('');
    expect(budget.exceeded).toBe(true);
    expect(budget.used).toBe(9);
    expect(budget.take('x')).toBe('');
  });

  it('accepts output of exactly the cap without exceeding it', () => {
    const budget = createOutputBudget(4);
    expect(budget.take('ab')).toBe('ab');
    expect(budget.take('cd')).toBe('cd');
    expect(budget.exceeded).toBe(false);
    expect(budget.take('')).toBe('');
    expect(budget.exceeded).toBe(false);
    expect(budget.take('e')).toBe('');
    expect(budget.exceeded).toBe(true);
  });
});
