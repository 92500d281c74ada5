import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootHost, type Host } from '../../../src/host/index.js';
import { problemCode } from '../../../src/index.js';
import { fixtureDiscovery } from '../../helpers/fixture-discovery.js';

const code = (type: string | undefined) => (type === undefined ? undefined : problemCode(type));

// A tool family's exact tools replace its generic invocation for admission (§executor-tool-registry).
describe('tool registries through the host', () => {
  let host: Host;
  beforeAll(async () => {
    host = await bootHost(fixtureDiscovery(['exec-tool-family', 'exec-bad-tool-registry', 'exec-echo']));
  });
  afterAll(() => host.close());

  it('reads and validates the snapshot at boot', () => {
    expect(host.toolRegistry('text')?.tools.map((tool) => tool.target)).toEqual(['upper', 'stamp']);
    expect(host.toolRegistry('echo')).toBeUndefined();
  });

  it('makes a tag whose snapshot breaks the rules unavailable, naming the field', () => {
    const verdict = host.availability('bad-tools');
    expect(verdict?.available).toBe(false);
    expect(verdict?.detail).toMatch(/Invalid tool registry from runtime "bad-tools"/);
    expect(verdict?.detail).toMatch(/tools\[1\]\.target/);
    expect(host.toolRegistry('bad-tools')).toBeUndefined();
  });

  it('runs the tool the target names, with that tool’s buckets and effect', async () => {
    const upper = await host.exec({ runtime: 'text', body: 'hi', target: 'upper' });
    expect(upper).toMatchObject({ result: { status: 200 }, effect: 'read' });
    expect(upper.channels.results?.text).toBe('HI');
    const stamp = await host.exec({ runtime: 'text', body: '', target: 'stamp' });
    expect(stamp).toMatchObject({ result: { status: 200 }, effect: 'pure' });
  });

  it.each([
    [
      'no target',
      '',
      null,
      'target-required',
      /text is a tool family: name one of its tools as the target \(upper, stamp\)/,
    ],
    ['an unknown tool', 'x', 'lower', 'target-not-supported', /text has no tool "lower"; its tools: upper, stamp/],
    ['a body the tool requires', '', 'upper', 'body-required', /text needs a body \(text to upper-case\)/],
    [
      'a body and target to an exclusive tool',
      'extra',
      'stamp',
      'input-conflict',
      /takes a body or a target, not both/,
    ],
  ])('refuses %s before effect()', async (_name, body, target, expected, detail) => {
    const out = await host.exec({ runtime: 'text', body, target });
    expect(out.result.status).toBe(400);
    expect(code(out.result.problem?.type)).toBe(expected);
    expect(out.result.problem?.detail).toMatch(detail);
    expect(out.effect).toBeNull();
  });
});
