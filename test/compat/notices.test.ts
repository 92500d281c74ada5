import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import {
  ClientInteractionRequestSchema,
  ClientInteractionResolutionSchema,
  NoticeSchema,
  renderJsonResult,
} from '../../src/index.js';
import { measureNotice } from '../../src/contracts/notice.js';

// The 1.x contracts shapes a leaf emits and awaits (reference §1.7).
describe('1.x notices', () => {
  it.each([
    ['search progress', { source: 'search', kind: 'search_progress', level: 'info' }],
    ['a scoped source with a message', { source: 'executor:jq', kind: 'jq_stderr', level: 'warn', message: 'x' }],
    ['a null message and position', { source: 'git', kind: 'hint', level: 'error', message: null, position: null }],
    [
      'a content offset',
      { source: 'wat', kind: 'parse', level: 'error', position: { type: 'content-offset', line: 1, column: 0 } },
    ],
    [
      'a log coordinate',
      {
        source: 'sh',
        kind: 'ref',
        level: 'info',
        position: { type: 'log-coordinate', coordinate: '1/2/3', op: 'READ' },
      },
    ],
  ])('accepts %s', (_name, notice) => {
    expect(v.safeParse(NoticeSchema, notice).success).toBe(true);
  });

  it.each([
    ['the pre-1.x shape', { kind: 'progress', message: 'half', progress: 0.5 }],
    ['an uppercase source', { source: 'Search', kind: 'k', level: 'info' }],
    ['an unknown level', { source: 'search', kind: 'k', level: 'debug' }],
    ['an empty kind', { source: 'search', kind: '', level: 'info' }],
    [
      'a line 0 offset',
      { source: 'a', kind: 'k', level: 'info', position: { type: 'content-offset', line: 0, column: 0 } },
    ],
    [
      'an extra member that is not plain JSON (a Date)',
      { source: 'search', kind: 'k', level: 'info', at: new Date(0) },
    ],
    ['an extra member holding a function', { source: 'search', kind: 'k', level: 'info', then: () => 1 }],
  ])('refuses %s', (_name, notice) => {
    expect(v.safeParse(NoticeSchema, notice).success).toBe(false);
  });

  // 1.x handed emit straight to the service: the public search leaf's progress notices carry `phase`.
  it('accepts further plain-JSON members, as the search leaf emits them, and keeps them', () => {
    const notice = { source: 'search', kind: 'search_progress', level: 'info', message: 'fetching', phase: 'fetch' };
    expect(v.parse(NoticeSchema, notice)).toEqual(notice);
    const nested = { source: 'search', kind: 'k', level: 'info', phase: { step: 2, of: [1, 2, 3] }, done: null };
    expect(v.parse(NoticeSchema, nested)).toEqual(nested);
  });

  it('counts every further member, its key and its JSON, against the notice budget', () => {
    const plain = { source: 'search', kind: 'k', level: 'info', message: 'm' };
    expect(measureNotice(plain)).toBe('search'.length + 'k'.length + 'm'.length);
    expect(measureNotice({ ...plain, phase: 'fetch' })).toBe(measureNotice(plain) + 'phase'.length + '"fetch"'.length);
    const bulky = { ...plain, phase: { pages: 'x'.repeat(1000) } };
    expect(measureNotice(bulky)).toBeGreaterThan(1000);
  });
});

describe('1.x client interactions', () => {
  it('takes {toolName, arguments, message?, responseSchema} and answers resolved or cancelled', () => {
    const request = { toolName: 'confirm', arguments: { n: 1 }, message: 'ok?', responseSchema: { type: 'boolean' } };
    expect(v.parse(ClientInteractionRequestSchema, request)).toEqual(request);
    expect(v.safeParse(ClientInteractionRequestSchema, { ...request, message: '' }).success).toBe(false);
    expect(
      v.safeParse(ClientInteractionRequestSchema, { toolName: 'x', arguments: [], responseSchema: {} }).success,
    ).toBe(false);
    expect(v.parse(ClientInteractionResolutionSchema, { status: 'resolved', payload: true })).toEqual({
      status: 'resolved',
      payload: true,
    });
    expect(v.parse(ClientInteractionResolutionSchema, { status: 'cancelled' })).toEqual({ status: 'cancelled' });
    expect(v.safeParse(ClientInteractionResolutionSchema, { status: 'cancelled', payload: 1 }).success).toBe(false);
    expect(v.safeParse(ClientInteractionResolutionSchema, { outcome: 'declined' }).success).toBe(false);
  });
});

// 1.x §json-result-rendering: one item per line, a newline after each depth-1 comma.
describe('renderJsonResult, as 1.x', () => {
  it('renders [1,\\n2,\\n3] and keeps [], [x] and non-arrays on one line', () => {
    expect(renderJsonResult([1, 2, 3])).toBe('[1,\n2,\n3]');
    expect([renderJsonResult([]), renderJsonResult(['a']), renderJsonResult({ a: [1, 2] })]).toEqual([
      '[]',
      '["a"]',
      '{"a":[1,2]}',
    ]);
  });

  it('passes the replacer to JSON.stringify (the BigInt ⇒ string replacer of sqlite and wasm)', () => {
    const replacer = (_key: string, value: unknown) => (typeof value === 'bigint' ? value.toString() : value);
    expect(renderJsonResult([{ id: 1n }, { id: 9007199254740993n }], replacer)).toBe(
      '[{"id":"1"},\n{"id":"9007199254740993"}]',
    );
  });

  it('throws a TypeError saying the value must serialize to a JSON value', () => {
    expect(() => renderJsonResult(undefined)).toThrow(TypeError);
    expect(() => renderJsonResult(undefined)).toThrow(/must serialize to a JSON value/);
  });
});
