import { describe, expect, it } from 'vitest';
import { fixture } from '../../helpers/discovery-fixtures.js';
import { runCli } from '../../helpers/run-cli.js';

describe('plurnk-execs probe beside invalid leaf packages', () => {
  it('boots what is valid and lists each invalid package with its errors', async () => {
    const { code, stdout } = await runCli(['probe'], { cwd: fixture('invalid'), env: { ...process.env } });
    expect(code).toBe(0);
    expect(stdout).toContain('no executor leaves found (searched ');
    expect(stdout).toMatch(/^bad-declaration \(.*bad-declaration\): invalid, skipped:$/m);
    expect(stdout).toContain('summary must be one line');
    expect(stdout).toMatch(/^two-bad-declarations \(/m);
  });
});
