import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RegistryEntry } from '../../../src/contracts/registry.js';
import { exampleNeeds } from '../../../src/check/example-needs.js';
import { scratchDir } from '../../helpers/scratch.js';

/** The fields exampleNeeds reads of a registry entry. */
function entry(runtime: string): RegistryEntry {
  return { runtime, invocation: {} } as unknown as RegistryEntry;
}

describe('what an example seems to need', () => {
  it.each([
    ['sh', 'git status --short', null, 'a git repository'],
    ['git', 'status --short', null, 'a git repository'],
    ['sh', 'grep -c TODO notes.txt', null, 'a file notes.txt'],
    ['sh', "cat 'data/rows.csv' | wc -l", null, 'a file data/rows.csv'],
    ['wasm', '', 'module.wasm', 'a file module.wasm'],
    ['sh', 'git log -- README.md', null, 'a git repository and a file README.md'],
    // A call that looks like a file name, a number, a flag: none is a file.
    ['node', 'console.log(1.5)', null, 'a working directory with what it expects'],
    ['sh', 'exit 3', null, 'a working directory with what it expects'],
  ])('reads %s %j (target %j) as needing %s', (runtime, body, target, needs) => {
    expect(exampleNeeds(entry(runtime), { body, target }, scratchDir('example-needs'))).toBe(needs);
  });

  it('needs neither a repository inside a work tree nor a file that is there', () => {
    const dir = scratchDir('example-needs');
    mkdirSync(join(dir, '.git'));
    mkdirSync(join(dir, 'sub'));
    writeFileSync(join(dir, 'sub', 'notes.txt'), 'TODO');
    expect(exampleNeeds(entry('sh'), { body: 'git grep TODO notes.txt', target: null }, join(dir, 'sub'))).toBe(
      'a working directory with what it expects',
    );
  });
});
