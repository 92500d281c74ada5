import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import * as v from 'valibot';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { EngineObserver, ENGINE_STATS_WAIT_MS, processTagStats } from '../../../src/engine/engine-observe.js';
import type { EngineProcess } from '../../../src/engine/engine-process.js';
import { EngineMessageSchema } from '../../../src/engine/engine-protocol.js';
import type { EventFrame, StatsFrame } from '../../../src/engine/observe-wire.js';
import { CrashBreaker } from '../../../src/model/crash-breaker.js';
import type { TierTagStats } from '../../../src/model/observe/host-stats.js';
import { EVENT_TEXT_CHARS } from '../../../src/model/observe/observe-events.js';
import { QueueWatch } from '../../../src/model/observe/queue-watch.js';

/** The end of an engine the observer talks to: what it was sent, and why it was failed. */
function fakeEngine() {
  const sent: unknown[] = [];
  const failed: string[] = [];
  const engine = {
    send: (message: unknown) => (sent.push(message), true),
    fail: (why: string) => void failed.push(why),
  } as unknown as EngineProcess;
  return { engine, sent, failed };
}

const TAG_STATS: TierTagStats = {
  threads: { starting: 0, idle: 1, busy: 0, retiring: 0, spares: 1 },
  waiting: 2,
  crashes: 1,
  breaker: { state: 'closed', crashes: 1, retryInMs: null, retryAt: null, lastCrash: 'x'.repeat(5000) },
};

/** Frames as they come off the wire: validated by the engine protocol's schema first. */
function frame<T extends StatsFrame | EventFrame>(value: unknown): T {
  return v.parse(EngineMessageSchema, value) as T;
}

describe('EngineObserver', () => {
  const observers: EngineObserver[] = [];
  const open = (engine: EngineProcess, tags = ['sh', 'jq']) => {
    const observer = new EngineObserver(new Set(tags), () => engine);
    observers.push(observer);
    return observer;
  };
  const stops: (() => void)[] = [];
  const listen = (name: string) => {
    const seen: unknown[] = [];
    const handler = (payload: unknown) => void seen.push(payload);
    subscribe(name, handler);
    stops.push(() => unsubscribe(name, handler));
    return seen;
  };
  afterEach(() => {
    for (const observer of observers.splice(0)) observer.close();
    for (const stop of stops.splice(0)) stop();
    vi.useRealTimers();
  });

  it('tells the engine which of its events someone listens to, and again only when that changed', () => {
    const { engine, sent } = fakeEngine();
    const observer = open(engine);
    observer.sync();
    observer.sync();
    expect(sent).toEqual([{ t: 'observe', events: [] }]);
    listen('plurnk-execs:tag:degraded');
    observer.sync();
    observer.sync();
    stops.pop()!();
    observer.sync();
    expect(sent).toEqual([
      { t: 'observe', events: [] },
      { t: 'observe', events: ['plurnk-execs:tag:degraded'] },
      { t: 'observe', events: [] },
    ]);
  });

  it('republishes a forwarded event of a tag the engine serves, its leaf text cut', () => {
    const { engine, failed } = fakeEngine();
    const seen = listen('plurnk-execs:thread:retired');
    open(engine).receive(
      frame({
        t: 'event',
        event: {
          name: 'plurnk-execs:thread:retired',
          payload: { tag: 'sh', threadId: 4, why: 'crashed', detail: 'y'.repeat(5000), runs: 1 },
        },
      }),
      engine,
    );
    expect(failed).toEqual([]);
    expect(seen).toEqual([{ tag: 'sh', threadId: 4, why: 'crashed', detail: expect.any(String), runs: 1 }]);
    expect((seen[0] as { detail: string }).detail).toHaveLength(EVENT_TEXT_CHARS);
  });

  it('kills the engine as corrupt for an event naming a tag it does not serve, and republishes nothing', () => {
    const { engine, failed } = fakeEngine();
    const seen = listen('plurnk-execs:tag:restored');
    open(engine).receive(
      frame({ t: 'event', event: { name: 'plurnk-execs:tag:restored', payload: { tag: 'wat' } } }),
      engine,
    );
    expect(failed).toEqual(['an event naming a tag it does not serve (wat)']);
    expect(seen).toEqual([]);
  });

  it('answers an ask with the engine’s stats, their text cut and their clock the service’s', async () => {
    const { engine, sent, failed } = fakeEngine();
    const observer = open(engine);
    const asked = observer.ask(engine);
    expect(sent).toEqual([{ t: 'stats', id: 0 }]);
    const open_ = { ...TAG_STATS.breaker, state: 'open', retryInMs: 1000, retryAt: 'forged' };
    observer.receive(
      frame({ t: 'stats', id: 0, tags: { sh: TAG_STATS, jq: { ...TAG_STATS, breaker: open_ } } }),
      engine,
    );
    const answer = await asked;
    expect(failed).toEqual([]);
    expect(answer!.sh!.breaker.lastCrash).toHaveLength(EVENT_TEXT_CHARS);
    expect(answer!.sh!.threads).toEqual(TAG_STATS.threads);
    expect(Date.parse(answer!.jq!.breaker.retryAt!)).toBeGreaterThan(Date.now());
  });

  it('kills the engine as corrupt for stats naming a tag it does not serve; the ask then goes unanswered', async () => {
    vi.useFakeTimers();
    const { engine, failed } = fakeEngine();
    const observer = open(engine);
    const asked = observer.ask(engine);
    observer.receive(frame({ t: 'stats', id: 0, tags: { sh: TAG_STATS, wat: TAG_STATS } }), engine);
    expect(failed).toEqual(['stats naming a tag it does not serve (wat)']);
    await vi.advanceTimersByTimeAsync(ENGINE_STATS_WAIT_MS);
    expect(await asked).toBeUndefined();
  });

  it('settles every ask still waiting when it closes', async () => {
    const { engine } = fakeEngine();
    const observer = open(engine);
    const asked = observer.ask(engine);
    observer.close();
    expect(await asked).toBeUndefined();
  });
});

describe('the observing frames of the engine protocol', () => {
  const event = (name: string, payload: unknown) => ({ t: 'event', event: { name, payload } });
  it.each([
    ['an event the engine does not forward', event('plurnk-execs:engine:start', { pid: 1 })],
    [
      'a thread id below zero',
      event('plurnk-execs:thread:retired', { tag: 'sh', threadId: -1, why: 'crashed', detail: null, runs: 0 }),
    ],
    [
      'a reason outside the closed set',
      event('plurnk-execs:thread:retired', { tag: 'sh', threadId: 1, why: 'bored', detail: null, runs: 0 }),
    ],
    ['a key the payload does not have', event('plurnk-execs:tag:restored', { tag: 'sh', extra: true })],
    [
      'a crash count that is no integer',
      event('plurnk-execs:tag:degraded', { tag: 'sh', crashes: 1.5, reason: 'r', retryInMs: 1 }),
    ],
    [
      'stats whose breaker is in no known state',
      { t: 'stats', id: 0, tags: { sh: { ...TAG_STATS, breaker: { ...TAG_STATS.breaker, state: 'ajar' } } } },
    ],
    [
      'stats with a negative count of threads',
      { t: 'stats', id: 0, tags: { sh: { ...TAG_STATS, threads: { ...TAG_STATS.threads, busy: -1 } } } },
    ],
    ['an outcome frame with a negative queue wait', { t: 'outcome', id: 0, outcome: {}, lengths: {}, queueMs: -1 }],
  ])('refuses %s', (_, value) => {
    expect(v.safeParse(EngineMessageSchema, value).success).toBe(false);
  });
});

describe('processTagStats', () => {
  it('joins the engine’s facts with the service’s: runs waiting for an engine, engine deaths charged to a tag', () => {
    const breaker = new CrashBreaker({ crashes: 1, windowMs: 60_000, cooldownMs: 60_000 });
    breaker.record('sh', 'the engine process died');
    const waiting = new QueueWatch();
    waiting.enter('sh');
    const stats = processTagStats(['sh', 'jq'], { sh: TAG_STATS, jq: TAG_STATS }, breaker, waiting);
    expect(stats.sh).toMatchObject({
      threads: TAG_STATS.threads,
      waiting: 3,
      crashes: 2,
      // The service's open breaker holds the tag, whatever the engine's says; both windows' crashes count.
      breaker: { state: 'open', crashes: 2, lastCrash: 'the engine process died' },
    });
    expect(stats.jq).toEqual(TAG_STATS);
  });

  it('reports no threads for the tags of an engine that did not answer', () => {
    const stats = processTagStats(['sh'], undefined, new CrashBreaker(), new QueueWatch());
    expect(stats.sh).toEqual({
      threads: null,
      waiting: 0,
      crashes: 0,
      breaker: { state: 'closed', crashes: 0, retryInMs: null, retryAt: null, lastCrash: null },
    });
  });
});
