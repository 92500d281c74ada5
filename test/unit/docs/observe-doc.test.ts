import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { OBSERVE_CHANNELS, RETIRE_REASONS } from '../../../src/host/index.js';

const HOST_MD = readFileSync(new URL('../../../docs/host.md', import.meta.url), 'utf8');
const SECTION = HOST_MD.slice(HOST_MD.indexOf('## Observing the host'), HOST_MD.indexOf('## close()'));

// docs/host.md "Observing the host" is what a service wires its logger and its APM to: every
// channel the host publishes on has its row, and every reason a thread is retired is named.
describe('docs/host.md, Observing the host', () => {
  it('is there, before close()', () => {
    expect(SECTION.length).toBeGreaterThan(1000);
  });

  it.each(Object.values(OBSERVE_CHANNELS))('documents the channel %s in its table', (name) => {
    expect(SECTION).toMatch(new RegExp(`^\\| \`${name}\` \\| `, 'm'));
  });

  it('names every channel it documents as one the host publishes on', () => {
    const documented = [...SECTION.matchAll(/^\| `(plurnk-execs:[^`]+)` \|/gm)].map((match) => match[1]);
    expect(documented.sort()).toEqual(Object.values(OBSERVE_CHANNELS).sort());
  });

  it.each(RETIRE_REASONS)('says when a thread is retired as %s', (reason) => {
    const row = SECTION.split('\n').find((line) => line.startsWith('| `plurnk-execs:thread:retired` |'))!;
    expect(row).toContain(`\`${reason}\``);
  });

  it('shows the exec tracing channel wired into a logger', () => {
    expect(SECTION).toContain("tracingChannel<ExecTrace>('plurnk-execs:exec').subscribe(");
  });
});
