import { describe, expect, it } from 'vitest';
import { compileConsumer } from '../../helpers/compile-consumer.js';

// A service and a TypeScript leaf, compiled against the built package with `skipLibCheck:
// false`: the shipped declarations themselves are checked, as a consumer's compiler checks them.
describe('a TypeScript consumer of the built package', () => {
  it('compiles a service and a leaf with skipLibCheck false, the package declarations included', () => {
    expect(compileConsumer()).toEqual([]);
  }, 240_000);
});
