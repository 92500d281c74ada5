import { describe, expect, it } from 'vitest';
import type { ExecInfo, ExecRegistry } from '../../../src/contracts/registry.js';
import { engineLabel, groupEngines } from '../../../src/engine/engine-groups.js';

/** A registry of `[tag, package]` pairs, in that order: only the owner matters to grouping. */
function registry(...tags: [string, string][]): ExecRegistry {
  return new Map(tags.map(([runtime, packageName]) => [runtime, { runtime, packageName } as ExecInfo]));
}

const BUILT_IN = registry(
  ['sh', '@plurnk/plurnk-execs-common'],
  ['bash', '@plurnk/plurnk-execs-common'],
  ['git', '@plurnk/plurnk-execs-git'],
  ['jq', '@plurnk/plurnk-execs-jq'],
  ['wat', '@plurnk/plurnk-execs-wasm'],
  ['wasm', '@plurnk/plurnk-execs-wasm'],
);

describe('which engine runs which package', () => {
  it('gives every package an engine of its own by default, its tags in discovery order', () => {
    expect(groupEngines(BUILT_IN)).toEqual([
      { packages: ['@plurnk/plurnk-execs-common'], tags: ['sh', 'bash'] },
      { packages: ['@plurnk/plurnk-execs-git'], tags: ['git'] },
      { packages: ['@plurnk/plurnk-execs-jq'], tags: ['jq'] },
      { packages: ['@plurnk/plurnk-execs-wasm'], tags: ['wat', 'wasm'] },
    ]);
  });

  it('puts the packages of a shared group into one engine, where the first of them comes', () => {
    const shared = [['@plurnk/plurnk-execs-wasm', '@plurnk/plurnk-execs-git']];
    expect(groupEngines(BUILT_IN, shared)).toEqual([
      { packages: ['@plurnk/plurnk-execs-common'], tags: ['sh', 'bash'] },
      { packages: ['@plurnk/plurnk-execs-git', '@plurnk/plurnk-execs-wasm'], tags: ['git', 'wat', 'wasm'] },
      { packages: ['@plurnk/plurnk-execs-jq'], tags: ['jq'] },
    ]);
  });

  it('starts no engine for a package with no served tag, in a group or not', () => {
    expect(
      groupEngines(registry(['jq', 'jq-pkg']), [
        ['absent-a', 'absent-b'],
        ['jq-pkg', 'absent-c'],
      ]),
    ).toEqual([{ packages: ['jq-pkg'], tags: ['jq'] }]);
    expect(groupEngines(registry())).toEqual([]);
  });

  it('names an engine by its packages', () => {
    expect(engineLabel({ packages: ['a', '@s/b'], tags: ['x'] })).toBe('the engine of a + @s/b');
  });
});
