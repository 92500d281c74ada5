import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CONSUMER_CODES, OUTCOME_CLASSES, type ConsumerCode } from '../../../src/host/index.js';
import { hostFailure } from '../../../src/model/host-problems.js';
import { classifyOutcome } from '../../../src/model/outcome-class.js';

const HOST_MD = readFileSync(new URL('../../../docs/host.md', import.meta.url), 'utf8');

// docs/host.md is the service author's reference: every Problem code the host can return and
// every outcome class has its row, with the status the code really has.
describe('docs/host.md', () => {
  it.each(Object.entries(CONSUMER_CODES))(
    'documents Problem code %s with status %i and its outcome',
    (code, status) => {
      const outcome = classifyOutcome(hostFailure(code as ConsumerCode, 'x'), null);
      expect(HOST_MD).toMatch(new RegExp(`^\\| \`${code}\` \\| ${status} \\| ${outcome} \\|`, 'm'));
    },
  );

  it.each(OUTCOME_CLASSES)('documents outcome %s', (outcome) => {
    expect(HOST_MD).toMatch(new RegExp(`^\\| \`${outcome}\` \\| `, 'm'));
  });
});
