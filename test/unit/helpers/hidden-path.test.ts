import { spawnSync } from 'node:child_process';
import { chmodSync, readlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { binariesToHide, pathWithout } from '../../helpers/hidden-path.js';
import { isInstalled } from '../../helpers/interpreters.js';
import { scratchDir } from '../../helpers/scratch.js';

// The PATH the test setup gives every test worker when PLURNK_EXECS_TEST_HIDE_INTERPRETERS asks
// (.ci/run does, to run the tests of the optional interpreters as a fresh machine would).

/** A folder holding an executable script for each name, printing `folder/name`. */
function binDir(names: string[], executable = true): string {
  const dir = scratchDir('hidden-path');
  for (const name of names) {
    writeFileSync(join(dir, name), `#!/bin/sh\necho ${join(dir, name)}\n`);
    chmodSync(join(dir, name), executable ? 0o755 : 0o644);
  }
  return dir;
}

describe('pathWithout', () => {
  it('finds everything the PATH found except the hidden names, each where the PATH found it first', () => {
    const first = binDir(['ruby', 'tool']);
    const second = binDir(['ruby', 'tool', 'php', 'lua5.4']);
    const path = pathWithout(['ruby', 'lua5.4'], `${first}:${second}`);
    expect(isInstalled('ruby', path)).toBe(false);
    expect(isInstalled('lua', path)).toBe(false);
    expect(isInstalled('php', path)).toBe(true);
    expect(readlinkSync(join(path, 'tool'))).toBe(join(first, 'tool'));
    expect(readlinkSync(join(path, 'php'))).toBe(join(second, 'php'));
  });

  it('is what a child process searches: a hidden name is not found, the rest run', () => {
    const bin = binDir(['ruby', 'tool']);
    const path = pathWithout(['ruby'], `${bin}:/usr/bin:/bin`);
    const found = spawnSync('sh', ['-c', 'command -v ruby || echo "no ruby"; tool'], {
      env: { PATH: path },
      encoding: 'utf8',
    });
    expect(found.stdout).toBe(`no ruby\n${join(bin, 'tool')}\n`);
  });

  it('links no file that is not executable, and ignores relative and missing PATH entries', () => {
    const plain = binDir(['notes'], false);
    const bin = binDir(['tool']);
    const path = pathWithout([], `${plain}:relative/bin::${join(bin, 'missing')}:${bin}`);
    expect(spawnSync('ls', [path], { encoding: 'utf8' }).stdout).toBe('tool\n');
  });
});

describe('binariesToHide', () => {
  it.each([
    [undefined, []],
    ['', []],
    ['ruby', ['ruby']],
    [' lua , tcl ', ['lua5.4', 'lua', 'tclsh']],
    ['python,python3', ['python3']],
  ])('reads %j as the binaries %j', (value, binaries) => {
    expect(binariesToHide(value)).toEqual(binaries);
  });

  it('reads "optional" as every binary of the interpreters the README does not ask for', () => {
    expect(binariesToHide('optional')).toEqual([
      'python3',
      'perl',
      'ruby',
      'php',
      'lua5.4',
      'lua',
      'tclsh',
      'bc',
      'deno',
      'bun',
    ]);
  });

  it.each(['cobol', 'ruby,', 'all'])('refuses %j, naming the variable and the tags it takes', (value) => {
    expect(() => binariesToHide(value)).toThrow(
      new RegExp(
        `PLURNK_EXECS_TEST_HIDE_INTERPRETERS must be "optional" or a comma-separated list of tags among sh, bash, .*; received "${value}"`,
      ),
    );
  });
});
