import { describe, expect, it } from 'vitest';
import { RunStream } from '../../../../src/host/ports/run-stream.js';

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
    [['out', 42], 'write to out: chunk must be a string, received number'],
    [['out', 'x', ''], 'write to out: mimetype must be a non-empty string, received ""'],
    [['done', 'x'], 'write to done after it became closed'],
    [[7, 'x'], 'write to undeclared channel 7 (declared: out, done)'],
    [['__proto__', 'x'], 'write to undeclared channel "__proto__" (declared: out, done)'],
  ])('refuses write(%j)', (args, violation) => {
    const stream = new RunStream(decls);
    stream.write(...(args as [unknown, unknown, unknown?]));
    expect(stream.violations).toEqual([violation]);
    expect(stream.channels.out!.text).toBe('');
  });

  it('refuses every sink call once sealed', () => {
    const stream = new RunStream(decls);
    stream.seal();
    stream.write('out', 'late');
    stream.setState('out', 'closed');
    stream.emit({ source: 'search', kind: 'search_progress', level: 'info', message: 'late' });
    expect(stream.violations).toEqual([
      'write after run() settled',
      'setState after run() settled',
      'emit after run() settled',
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

  it('keeps a bounded list of violations with a count of the rest', () => {
    const stream = new RunStream(decls);
    for (let i = 0; i < 150; i++) stream.write('nope', String(i));
    expect(stream.violations).toHaveLength(100);
    expect(stream.violations[99]).toBe('… and 51 more violations');
  });
});
