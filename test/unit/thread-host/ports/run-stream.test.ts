import { describe, expect, it } from 'vitest';
import { RunStream } from '../../../../src/thread-host/ports/run-stream.js';

const decls = { out: { mimetype: 'text/plain' }, done: { mimetype: 'text/plain', defaultState: 'closed' as const } };

describe('RunStream', () => {
  it('seeds every declared channel with its defaultState, active otherwise', () => {
    const stream = new RunStream(decls);
    expect(stream.channels).toEqual({
      out: { mimetype: 'text/plain', state: 'active', text: '', parts: [] },
      done: { mimetype: 'text/plain', state: 'closed', text: '', parts: [] },
    });
  });

  it.each([
    [['out', 42], 'invalid-write', 'write to out: chunk must be a string, received number'],
    [['out', 'x', ''], 'invalid-write', 'write to out: mimetype must be a non-empty string, received ""'],
    [['done', 'x'], 'inactive-channel', 'write to done after it became closed'],
    [[7, 'x'], 'undeclared-channel', 'write to undeclared channel 7 (declared: out, done)'],
    [['__proto__', 'x'], 'undeclared-channel', 'write to undeclared channel "__proto__" (declared: out, done)'],
  ])('refuses write(%j) as %s', (args, kind, detail) => {
    const stream = new RunStream(decls);
    stream.write(...(args as [unknown, unknown, unknown?]));
    expect(stream.violations).toEqual([{ kind, detail }]);
    expect(stream.channels.out!.text).toBe('');
  });

  it('refuses every sink call once sealed', () => {
    const stream = new RunStream(decls);
    stream.seal();
    stream.write('out', 'late');
    stream.setState('out', 'closed');
    stream.emit({ source: 'search', kind: 'search_progress', level: 'info', message: 'late' });
    expect(stream.violations).toEqual([
      { kind: 'after-settle', detail: 'write after run() settled' },
      { kind: 'after-settle', detail: 'setState after run() settled' },
      { kind: 'after-settle', detail: 'emit after run() settled' },
    ]);
    expect(stream.channels.out).toMatchObject({ text: '', state: 'active' });
  });

  it.each([
    [200, 'closed'],
    [399, 'closed'],
    [400, 'errored'],
    [504, 'errored'],
  ])('finishes active channels after status %i as %s, leaving terminal ones', (status, state) => {
    const stream = new RunStream(decls);
    stream.finish(status);
    expect(stream.channels.out!.state).toBe(state);
    expect(stream.channels.done!.state).toBe('closed');
  });

  it('reads what was written so far mid-run, and seals each channel into plain strings an outcome can carry', () => {
    const stream = new RunStream(decls);
    for (let i = 0; i < 3000; i++) stream.write('out', String(i % 10));
    stream.write('out', '{"a":1}', 'application/json');
    stream.write('out', 'more');
    expect(stream.channels.out!.text).toHaveLength(3000 + 11);
    stream.seal();
    const out = stream.channels.out!;
    const digits = Array.from({ length: 3000 }, (_, i) => String(i % 10)).join('');
    expect(out.parts).toEqual([
      { mimetype: 'text/plain', text: digits },
      { mimetype: 'application/json', text: '{"a":1}more' },
    ]);
    expect(out.text).toBe(`${digits}{"a":1}more`);
    for (const holder of [out, ...out.parts])
      expect(Object.getOwnPropertyDescriptor(holder, 'text')).toMatchObject({ writable: true, enumerable: true });
    expect(structuredClone(out)).toEqual(out);
  });

  it('keeps a bounded list of violations with a count of the rest', () => {
    const stream = new RunStream(decls);
    for (let i = 0; i < 150; i++) stream.write('nope', String(i));
    expect(stream.violations).toHaveLength(100);
    expect(stream.violations[98]!.kind).toBe('undeclared-channel');
    expect(stream.violations[99]).toEqual({ kind: 'truncated', detail: '… and 51 more violations' });
  });
});
