import * as v from 'valibot';
import { describe, expect, it, vi } from 'vitest';
import { keyedParser } from '../../../src/contracts/keyed-variant.js';
import { TaskReplySchema, WorkerControlMessageSchema } from '../../../src/contracts/protocol.js';
import { EngineMessageSchema } from '../../../src/engine/engine-protocol.js';

/** What a parse tells a caller: success, output, and each issue's message and path keys. */
function seen(result: v.SafeParseResult<v.GenericSchema>) {
  return {
    success: result.success,
    output: result.output,
    issues: result.issues?.map((issue) => ({ message: issue.message, path: issue.path?.map((step) => step.key) })),
  };
}

const SHAPE = v.variant('kind', [
  v.strictObject({ kind: v.literal('a'), size: v.pipe(v.number(), v.minValue(0)) }),
  v.object({ kind: v.literal('b'), name: v.string(), note: v.optional(v.string()) }),
  v.object({ kind: v.literal(3), items: v.array(v.boolean()) }),
]);

describe('keyedParser', () => {
  it.each([
    ['a valid value of the first kind', { kind: 'a', size: 1 }],
    ['a valid value of a later kind, unknown keys dropped by its object', { kind: 'b', name: 'x', extra: true }],
    ['a number discriminator', { kind: 3, items: [true, false] }],
    ['a bad field of a known kind', { kind: 'a', size: -1 }],
    ['an unknown key of a strict kind', { kind: 'a', size: 1, extra: 1 }],
    ['a bad nested item', { kind: 3, items: [true, 'no'] }],
    ['a discriminator that names no kind', { kind: 'c', size: 1 }],
    ['a discriminator of the wrong type', { kind: '3', items: [] }],
    ['no discriminator', { size: 1 }],
    ['an array', ['a']],
    ['null', null],
    ['a string', 'a'],
  ])('parses %s exactly as the variant does', (_name, value) => {
    expect(seen(keyedParser(SHAPE)(value))).toEqual(seen(v.safeParse(SHAPE, value)));
  });

  it('goes through the variant only for a value whose discriminator names no kind', () => {
    const schema = v.variant('kind', [...SHAPE.options]);
    const search = vi.spyOn(schema, '~run');
    const parse = keyedParser(schema);
    parse({ kind: 'a', size: 1 });
    parse({ kind: 'b', name: 1 });
    expect(search).not.toHaveBeenCalled();
    parse({ kind: 'c' });
    expect(search).toHaveBeenCalledTimes(1);
  });

  it('takes the kind from an inherited discriminator, as the variant does', () => {
    const value = Object.assign(Object.create({ kind: 'b' }) as object, { name: 'x' });
    expect(seen(keyedParser(SHAPE)(value))).toEqual(seen(v.safeParse(SHAPE, value)));
  });

  it('parses a variant whose kinds are not all told apart by a literal whole, with the same results', () => {
    const nested = v.variant('kind', [SHAPE, v.object({ kind: v.literal('z'), on: v.boolean() })]);
    for (const value of [{ kind: 'z', on: true }, { kind: 'a', size: 2 }, { kind: 'q' }])
      expect(seen(keyedParser(nested)(value))).toEqual(seen(v.safeParse(nested, value)));
  });

  it.each([
    ['an engine frame', EngineMessageSchema, { t: 'sinks', calls: [[3, ['setState', 'out', 'closed']]] }],
    ['a forged engine frame', EngineMessageSchema, { t: 'outcome', id: -1, outcome: {} }],
    ['a task reply', TaskReplySchema, { ok: false, stage: 'call', error: { name: 'E', message: 'm' }, threadId: 1 }],
    ['a forged task reply', TaskReplySchema, { ok: 'yes', value: 1, threadId: 1 }],
    ['a control message', WorkerControlMessageSchema, { type: 'process-group', pgid: 1 }],
  ])('agrees with the variant on %s', (_name, schema: v.GenericSchema, value) => {
    const parse = keyedParser(schema as typeof EngineMessageSchema);
    expect(seen(parse(value))).toEqual(seen(v.safeParse(schema, value)));
  });
});
