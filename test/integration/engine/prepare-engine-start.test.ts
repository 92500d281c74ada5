import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The front door learns what an engine's command needs of the machine beside discovery
// (prepareEngineStart); the engine's command then reads those verdicts. They must be the ones
// learned on first use, and really learned ahead: with PATH emptied after the ahead step, a
// detection run again would find no `unshare`, `perl` or `bash` and say otherwise.
const DIST = fileURLToPath(new URL('../../../dist/engine/', import.meta.url));

const VERDICTS = `
import { detectPidNamespace, prepareEngineStart } from '${DIST}engine-command.js';
import { detectInit } from '${DIST}namespace-init.js';
import { detectSandboxSupport } from '${DIST}sandbox/sandbox-support.js';
if (process.argv[1] === 'ahead') {
  await prepareEngineStart();
  process.env.PATH = '';
}
const prefix = detectPidNamespace();
process.stdout.write(JSON.stringify({ prefix, init: detectInit(), support: detectSandboxSupport(prefix) }));
`;

function verdicts(mode: 'ahead' | 'on first use'): unknown {
  return JSON.parse(
    execFileSync(process.execPath, ['--input-type=module', '-e', VERDICTS, mode], { encoding: 'utf8' }),
  );
}

describe('what an engine start learns of the machine ahead', () => {
  it('is what it learns on first use, and is not learned again', () => {
    const onFirstUse = verdicts('on first use');
    expect(verdicts('ahead')).toEqual(onFirstUse);
  });
});
