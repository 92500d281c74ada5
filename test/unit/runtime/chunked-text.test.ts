import { describe, expect, it } from 'vitest';
import { ChunkedText } from '../../../src/runtime/chunked-text.js';

describe('text kept in chunks', () => {
  it('reads back every chunk in order, across the blocks it joins and the large chunks it keeps whole', () => {
    const text = new ChunkedText();
    const expected: string[] = [];
    for (let i = 0; i < 2500; i++) {
      const chunk = i % 700 === 0 ? `<${'L'.repeat(2000)}${i}>` : String(i % 10);
      text.append(chunk);
      expected.push(chunk);
    }
    expect(text.length).toBe(expected.join('').length);
    expect(text.toString()).toBe(expected.join(''));
    text.append('tail');
    expect(text.toString()).toBe(`${expected.join('')}tail`);
  });

  it('is empty until something is appended, and ignores empty chunks', () => {
    const text = new ChunkedText();
    expect(text.toString()).toBe('');
    text.append('');
    expect(text.length).toBe(0);
  });
});
