import { describe, expect, it } from 'vitest';
import { fixture } from '../../helpers/discovery-fixtures.js';
import { runCli } from '../../helpers/run-cli.js';

describe('plurnk-execs probe beside invalid leaf packages', () => {
  it('boots what is valid and lists each invalid package with its errors', async () => {
    // sh comes from the repository's node_modules above the fixture; `fine` is declared by
    // bad-declaration, and no tag of runtimes-not-array can be read, so only it is excluded.
    const env = { ...process.env, PLURNK_EXECS_ONLY: 'sh,fine' };
    const { code, stdout } = await runCli(['probe'], { cwd: fixture('invalid'), env });
    expect(code).toBe(0);
    expect(stdout).toMatch(/^sh\s+@plurnk\/plurnk-execs-common\s+yes/m);
    expect(stdout).toMatch(/^bad-declaration \(.*bad-declaration\): invalid, skipped:$/m);
    expect(stdout).toContain('summary must be one line');
    expect(stdout).toMatch(/^runtimes-not-array \(.*\): invalid, and every tag it declares is excluded by policy:$/m);
  });
});
