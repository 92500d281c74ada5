import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { KNOWN_LEAVES } from '../../../src/discovery/known-leaves.js';

const LEAVES = fileURLToPath(new URL('../../../src/leaves/', import.meta.url));

describe('the first-party leaves an error names for a missing tag', () => {
  it('match the tags each built-in leaf manifest declares', () => {
    const declared: Record<string, string[]> = {};
    for (const leaf of readdirSync(LEAVES)) {
      const manifest = JSON.parse(readFileSync(`${LEAVES}${leaf}/package.json`, 'utf8'));
      declared[manifest.name] = manifest.plurnk.runtimes.map((runtime: { name: string }) => runtime.name);
    }
    expect(KNOWN_LEAVES).toEqual(declared);
  });
});
