import { describe, expect, test } from 'vitest';
import { Advertise, NO_EXECS_NOTICE, type RegistryEntry } from '../../../src/index.js';

const entry = (tag: string): RegistryEntry => ({
  runtime: tag,
  glyph: '',
  summary: `Run ${tag}.`,
  invocation: { body: { role: 'input', required: true }, exclusive: false, example: { body: 'x' } },
  details: '',
  packageName: `@test/${tag}`,
  packageDir: `/x/${tag}`,
  entryUrl: `file:///x/${tag}/index.js`,
});
const registry = new Map(['sh', 'jq', 'sqlite'].map((tag) => [tag, entry(tag)]));

describe('Advertise (frozen 1.x compatibility)', () => {
  test.each<[string, (tag: string) => boolean, string[], string | null]>([
    ['everything permitted', () => true, ['sh', 'jq', 'sqlite'], null],
    ['some permitted, in registry order', (tag) => tag !== 'jq', ['sh', 'sqlite'], null],
    ['nothing permitted gives the notice', () => false, [], NO_EXECS_NOTICE],
  ])('%s', (_title, isPermitted, tags, notice) => {
    const { permitted, notice: got } = Advertise.contribute(registry, isPermitted);
    expect(permitted.map((e) => e.runtime)).toEqual(tags);
    expect(got).toBe(notice);
  });

  test('an empty registry gives the notice', () => {
    expect(Advertise.contribute(new Map(), () => true)).toEqual({ permitted: [], notice: NO_EXECS_NOTICE });
  });

  test('the notice keeps its 1.x wording and is the same on the object', () => {
    expect(NO_EXECS_NOTICE).toBe('No EXEC operations permitted');
    expect(Advertise.NO_EXECS_NOTICE).toBe(NO_EXECS_NOTICE);
  });

  test('the filter is asked about tags, and the registry is left as it was', () => {
    const asked: string[] = [];
    Advertise.contribute(registry, (tag) => (asked.push(tag), false));
    expect(asked).toEqual(['sh', 'jq', 'sqlite']);
    expect(registry.size).toBe(3);
  });
});
