import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { bootHost, type Host } from '../../../src/host/index.js';
import type { ChannelState, ClientInteractionRequest } from '../../../src/index.js';
import { fixtureDiscovery } from '../../helpers/fixture-discovery.js';
import { watchHostErrors } from '../../helpers/zoo.js';

// Sinks are proxied over a MessagePort per run; these prove ordering, the flush
// barrier, the round-trips to the embedding service, and the host's refusals.
describe('run sinks across the thread', () => {
  let host: Host;
  beforeAll(async () => {
    host = await bootHost(fixtureDiscovery(['exec-writes-many', 'exec-interacts', 'exec-misbehaves']));
  });
  afterAll(() => host.close());

  it('delivers 10,000 writes complete and in order before the result, and the close after them', async () => {
    const events: string[] = [];
    const out = await host.exec({
      runtime: 'many',
      body: '10000',
      sinks: {
        write: (channel, chunk) => void events.push(`${channel}:${chunk}`),
        setState: (channel, state) => void events.push(`${channel}=${state}`),
      },
    });
    const expected = Array.from({ length: 10_000 }, (_, i) => `${i}\n`);
    expect(out.result).toEqual({ status: 200 });
    expect(out.channels.lines!.text).toBe(expected.join(''));
    expect(out.channels.lines!.state).toBe('closed');
    expect(out.violations).toEqual([]);
    // The embedding service saw every write, in order, then the state change — all before exec resolved.
    expect(events).toEqual([...expected.map((chunk) => `lines:${chunk}`), 'lines=closed']);
  });

  it("answers a leaf's interact with the embedding service's resolution", async () => {
    const asked: ClientInteractionRequest[] = [];
    const out = await host.exec({
      runtime: 'ask',
      body: 'deploy now?',
      sinks: {
        interact: async (request) => {
          asked.push(request);
          return { status: 'resolved', payload: { answer: 42 } };
        },
      },
    });
    expect(asked).toEqual([
      { toolName: 'confirm', arguments: { asked: true }, message: 'deploy now?', responseSchema: { type: 'object' } },
    ]);
    expect(JSON.parse(out.channels.results!.text)).toEqual({
      resolution: { status: 'resolved', payload: { answer: 42 } },
      hasEntry: false,
      address: null,
    });
  });

  it('keeps writes and an interaction in the order the leaf made them', async () => {
    const events: string[] = [];
    const out = await host.exec({
      runtime: 'ask',
      body: 'narrated',
      sinks: {
        write: (_channel, chunk) => void events.push(`write ${chunk}`),
        interact: async (request) => {
          events.push(`interact ${request.message}`);
          return { status: 'resolved' };
        },
      },
    });
    expect(out.result.status).toBe(200);
    expect(events).toEqual(['write asking;', 'interact go on?', 'write answered']);
  });

  it('answers cancelled, as 1.x does, when the embedding service has no interact sink', async () => {
    const out = await host.exec({ runtime: 'ask', body: 'anyone?' });
    expect(JSON.parse(out.channels.results!.text).resolution).toEqual({ status: 'cancelled' });
  });

  it('offers entry only when the embedding service does, and returns its address', async () => {
    const entries: unknown[] = [];
    const out = await host.exec({
      runtime: 'ask',
      body: 'save?',
      sinks: {
        interact: async () => ({ status: 'cancelled' }),
        entry: async (path, content, opts) => {
          entries.push({ path, content, opts });
          return 'known:///notes/answer.md';
        },
      },
    });
    expect(entries).toEqual([
      { path: 'notes/answer.md', content: '{"status":"cancelled"}', opts: { tags: ['answer'] } },
    ]);
    expect(JSON.parse(out.channels.results!.text)).toMatchObject({
      hasEntry: true,
      address: 'known:///notes/answer.md',
    });
  });

  it('rejects a malformed interaction in the leaf and records it as a violation', async () => {
    let called = false;
    const out = await host.exec({
      runtime: 'ask',
      body: 'malformed',
      sinks: { interact: async () => ((called = true), { status: 'resolved' }) },
    });
    expect(called).toBe(false);
    expect(JSON.parse(out.channels.results!.text).error).toMatch(/interact: invalid request/);
    expect(out.violations).toEqual([
      { kind: 'invalid-interaction', detail: expect.stringMatching(/^interact: invalid request.*toolName/) },
    ]);
  });

  it('refuses writes and state changes for undeclared channels, and forwards only what it accepted', async () => {
    const forwarded: string[] = [];
    const out = await host.exec({
      runtime: 'misbehave',
      body: 'undeclared',
      sinks: { write: (channel, chunk) => void forwarded.push(`${channel}:${chunk}`) },
    });
    expect(out.result.status).toBe(200);
    expect(Object.keys(out.channels)).toEqual(['out', 'err']);
    expect(out.channels.out!.text).toBe('kept');
    expect(forwarded).toEqual(['out:kept']);
    expect(out.violations).toEqual([
      { kind: 'undeclared-channel', detail: 'write to undeclared channel "nope" (declared: out, err)' },
      { kind: 'undeclared-channel', detail: 'setState to undeclared channel "nope" (declared: out, err)' },
    ]);
  });

  it('allows only active ⇒ closed or errored, and refuses writes to a closed channel', async () => {
    const states: [string, ChannelState][] = [];
    const out = await host.exec({
      runtime: 'misbehave',
      body: 'illegal',
      sinks: { setState: (channel, state) => void states.push([channel, state]) },
    });
    expect(out.channels.out).toMatchObject({ state: 'closed', text: '' });
    expect(out.violations).toEqual([
      {
        kind: 'illegal-transition',
        detail: 'setState on out: closed ⇒ active is not allowed (only active ⇒ closed or errored)',
      },
      { kind: 'inactive-channel', detail: 'write to out after it became closed' },
      { kind: 'invalid-state', detail: 'setState on err: "sideways" is not a channel state' },
    ]);
    // `err` was left active and the run succeeded, so the host closed it afterwards.
    expect(states).toEqual([
      ['out', 'closed'],
      ['err', 'closed'],
    ]);
  });

  it('keeps a per-write mimetype as its own part', async () => {
    const out = await host.exec({ runtime: 'misbehave', body: 'mimetypes' });
    expect(out.channels.out!.text).toBe('ab{"c":1}d');
    expect(out.channels.out!.parts).toEqual([
      { mimetype: 'text/plain', text: 'ab' },
      { mimetype: 'application/json', text: '{"c":1}d' },
    ]);
    expect(out.channels.out!.mimetype).toBe('application/json');
  });

  it('keeps valid notices and refuses invalid ones', async () => {
    const emitted: unknown[] = [];
    const out = await host.exec({
      runtime: 'misbehave',
      body: 'bad-notice',
      sinks: { emit: (notice) => void emitted.push(notice) },
    });
    expect(out.notices).toEqual([{ source: 'search', kind: 'search_progress', level: 'info', message: 'half' }]);
    expect(emitted).toEqual(out.notices);
    expect(out.violations).toEqual([
      { kind: 'invalid-notice', detail: expect.stringMatching(/^emit: invalid notice \(level: /) },
    ]);
  });

  it('records an embedding sink that throws without breaking the run', async () => {
    const out = await host.exec({
      runtime: 'misbehave',
      body: 'mimetypes',
      sinks: {
        write: () => {
          throw new Error('storage is full');
        },
      },
    });
    expect(out.result.status).toBe(200);
    expect(out.channels.out!.text).toBe('ab{"c":1}d');
    expect(out.violations[0]).toEqual({
      kind: 'embedding-sink',
      detail: "the embedding service's write sink threw: storage is full",
    });
  });

  // Each embedding sink may throw or reject: the run and the host go on, and the outcome says
  // which sink failed and how, as an embedding-sink violation (not the leaf's fault).
  describe('an embedding sink that throws or rejects', () => {
    const hostErrors = watchHostErrors();
    afterEach(() => expect(hostErrors.errors).toEqual([]));
    afterAll(() => hostErrors.dispose());
    const failing = (how: 'threw' | 'rejected') =>
      how === 'threw'
        ? () => {
            throw new Error('storage is full');
          }
        : () => Promise.reject(new Error('storage is full'));

    it.each([
      ['write', 'threw'],
      ['write', 'rejected'],
      ['setState', 'threw'],
      ['setState', 'rejected'],
      ['emit', 'threw'],
      ['emit', 'rejected'],
    ] as const)('keeps the run whole when the %s sink %s', async (sink, how) => {
      const out = await host.exec({
        runtime: 'misbehave',
        body: sink === 'emit' ? 'bad-notice' : 'mimetypes',
        sinks: { [sink]: failing(how) },
      });
      expect(out.result).toEqual({ status: 200 });
      if (sink === 'emit') expect(out.notices).toHaveLength(1);
      else expect(out.channels.out).toMatchObject({ text: 'ab{"c":1}d', state: 'closed' });
      expect(out.violations).toContainEqual({
        kind: 'embedding-sink',
        detail: `the embedding service's ${sink} sink ${how}: storage is full`,
      });
      expect((await host.exec({ runtime: 'many', body: '3' })).result).toEqual({ status: 200 });
    });

    it.each([
      ['interact', 'threw'],
      ['interact', 'rejected'],
      ['entry', 'threw'],
      ['entry', 'rejected'],
    ] as const)("rejects the leaf's call, not the run, when the %s sink %s", async (sink, how) => {
      const sinks = {
        interact: async () => ({ status: 'resolved' as const, payload: true }),
        entry: async () => 'known:///notes/a.md',
        [sink]: failing(how),
      };
      const out = await host.exec({ runtime: 'ask', body: 'guarded', sinks });
      expect(out.result).toEqual({ status: 200 });
      const detail = `the embedding service's ${sink} sink ${how}: storage is full`;
      const answered = {
        interaction: { value: { status: 'resolved', payload: true } },
        entry: { value: 'known:///notes/a.md' },
      };
      expect(JSON.parse(out.channels.results!.text)).toEqual({
        ...answered,
        [sink === 'interact' ? 'interaction' : 'entry']: { error: `Error: ${detail}` },
      });
      expect(out.violations).toEqual([{ kind: 'embedding-sink', detail }]);
      expect((await host.exec({ runtime: 'many', body: '3' })).result).toEqual({ status: 200 });
    });
  });
});
