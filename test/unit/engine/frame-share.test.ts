import { describe, expect, it } from 'vitest';
import { CHARS_PER_UNIT, frameCost } from '../../../src/engine/frame-share.js';

describe('what a frame costs of a turn’s share', () => {
  it('counts a sink batch by its calls and their text, and any other frame as one', () => {
    expect(frameCost({ t: 'outcome', id: 1 })).toBe(1);
    expect(frameCost('x')).toBe(1);
    expect(frameCost({ t: 'sinks', calls: [] })).toBe(1);
    const large = 'x'.repeat(3 * CHARS_PER_UNIT);
    const calls = [
      [1, ['write', 'out', 'x']],
      [1, ['setState', 'out', 'sealed']],
      [2, ['write', 'out', large]],
    ];
    expect(frameCost({ t: 'sinks', calls })).toBe(1 + 1 + 1 + (1 + 3));
    // Forged shapes cost what their calls count, never a throw.
    expect(frameCost({ t: 'sinks', calls: [null, 5, [1]] })).toBe(4);
  });

  it('counts joined writes as the writes they carry, and their text', () => {
    const chunks = ['a', 'b', 'x'.repeat(2 * CHARS_PER_UNIT)];
    expect(frameCost({ t: 'sinks', calls: [[1, ['writes', 'out', chunks]]] })).toBe(1 + 3 + 2);
    expect(frameCost({ t: 'sinks', calls: [[1, ['writes', 'out', [7, null]]]] })).toBe(1 + 2);
  });
});
