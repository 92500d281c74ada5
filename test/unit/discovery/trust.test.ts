import { describe, expect, test } from 'vitest';
import { isTrusted } from '../../../src/index.js';

describe('isTrusted', () => {
  test.each<[string, string, string | undefined, boolean]>([
    ['the gate unset trusts a third party', '@acme/cobol', undefined, true],
    ['an empty gate trusts a third party', '@acme/cobol', '', true],
    ['a gate of 0 trusts a third party', 'left-pad', '0', true],
    ['a whitespace gate counts as empty', 'left-pad', '  ', true],
    ['a gate of 1 withholds a third party', '@acme/cobol', '1', false],
    ['a gate of 1 trusts @plurnk/*', '@plurnk/plurnk-execs-common', '1', true],
    ['a gate of false is on (only 0 turns it off)', '@acme/cobol', 'false', false],
    ['a listed name is trusted', '@acme/cobol', '@acme/cobol,other', true],
    ['listed names are trimmed', 'other', '@acme/cobol , other ', true],
    ['an unlisted name is withheld', '@acme/evil', '@acme/cobol', false],
    ['a listed name must match exactly', '@acme/cobol-extra', '@acme/cobol', false],
    ['a lookalike of the first-party scope is withheld', '@plurnkx/leaf', '1', false],
  ])('%s', (_title, name, gate, expected) => {
    const env = gate === undefined ? {} : { PLURNK_PLUGINS_TRUSTED_ONLY: gate };
    expect(isTrusted(name, env)).toBe(expected);
  });
});
