import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { createHost, type ExecOutcome, type ForcedEnd, type Host, type HostOptions } from '../../src/host/index.js';
import type { ChannelState } from '../../src/index.js';
import { HOST_FIXTURES } from './fixture-discovery.js';
import { handshake } from './handshake.js';
import { survivors } from './survivors.js';
import { tierOptions } from './tier.js';

/** Root of the hostile-leaf zoo: one fake installed package per fault. */
export const ZOO = fileURLToPath(new URL('../../fixtures/zoo', import.meta.url));

/** Package directories for `packageDirs`: zoo fixtures by name, host fixtures as `host/<name>`. */
export function zooDirs(...names: string[]): string[] {
  return names.map((name) => (name.startsWith('host/') ? join(HOST_FIXTURES, name.slice(5)) : join(ZOO, name)));
}

/** Errors that reached the host process's last-resort handlers while a test ran. */
export function watchHostErrors(): { errors: unknown[]; dispose(): void } {
  const errors: unknown[] = [];
  const record = (error: unknown) => void errors.push(error);
  process.on('unhandledRejection', record);
  process.on('uncaughtException', record);
  return {
    errors,
    dispose() {
      process.off('unhandledRejection', record);
      process.off('uncaughtException', record);
    },
  };
}

/**
 * The host the tests of one describe block share, in the tier this run tests (tier.ts): booted
 * before them with `options` (or what `options()` gives), with `env` set in this process while
 * it lives (the service's secrets a leaf must not see), and closed after them. Every test must
 * end with no error on the host process's last-resort handlers. Returns the host's getter.
 */
export function zooHost(
  options: HostOptions | (() => HostOptions | Promise<HostOptions>),
  env: Record<string, string> = {},
): () => Host {
  let host: Host | undefined;
  const hostErrors = watchHostErrors();
  beforeAll(async () => {
    Object.assign(process.env, env);
    host = await createHost({ ...tierOptions(), ...(typeof options === 'function' ? await options() : options) });
  });
  afterEach(() => expect(hostErrors.errors).toEqual([]));
  afterAll(async () => {
    await host?.close();
    for (const key of Object.keys(env)) delete process.env[key];
    hostErrors.dispose();
  });
  return () => {
    if (host === undefined) throw new Error('the zoo host did not boot');
    return host;
  };
}

/** Every call the embedding service's sinks received, in order. */
export function recordSinks() {
  const calls: (
    { sink: 'write'; channel: string; chunk: string } | { sink: 'setState'; channel: string; state: ChannelState }
  )[] = [];
  const firstWrite = handshake<string>();
  return {
    calls,
    firstWrite: firstWrite.promise,
    sinks: {
      write: (channel: string, chunk: string) => {
        calls.push({ sink: 'write', channel, chunk });
        firstWrite.resolve(chunk);
      },
      setState: (channel: string, state: ChannelState) => void calls.push({ sink: 'setState', channel, state }),
    },
    text: (channel: string) => calls.map((c) => (c.sink === 'write' && c.channel === channel ? c.chunk : '')).join(''),
  };
}

/** One faulty run and what containing it must look like. */
export interface ZooCase {
  runtime: string;
  body?: string;
  target?: string | null;
  timeoutMs?: number;
  /** Abort the run once it wrote its first chunk and the other tag's run is done (for leaves that ignore their signal). */
  abortAfterFirstWrite?: boolean;
  /** `<owner>/<code>` of the Problem the run must settle with, e.g. `exec/executor-threw`; absent when the leaf's own result stands (a fault the host contains without failing the run). */
  problem?: string;
  status: number;
  /** How the host must say it ended the run (`containment.forcedEnd`): null when the leaf's own result stands; unchecked when absent. */
  forcedEnd?: ForcedEnd | null;
  /** What `out` must start with: the output written before the fault. */
  kept?: string;
  /** How the tag must answer next: run again with this body (and target) and write `text` (default `ok`), or stay unavailable. */
  next: { body: string; target?: string; text?: string } | 'unavailable';
}

/**
 * Runs a faulty EXEC and asserts everything containing it means: another tag runs fine once the
 * fault has started and after it; it settles once with the named Problem (or, for a fault the
 * host contains without failing the run, with the leaf's own result); output written before
 * the fault is kept, in the outcome and at the embedding sinks; every declared channel ends
 * terminal with one state change at most; no sink call arrives after it settled; no process it
 * started survives; and its tag answers the next run (or stays unavailable, as it was).
 *
 * "Started" is a handshake, never a guess: the other tag's run begins once the faulty run's
 * first write reached the embedding sink (when it keeps output, `kept`). A fault that ends at
 * once may be over by then, so only a run the test itself ends — `abortAfterFirstWrite`, aborted
 * after the other run is done — is asserted to still be in flight. A fault with no output
 * (refused before the run, or silent) has no such signal: the other run only starts beside it.
 */
export async function expectContained(host: Host, zoo: ZooCase): Promise<ExecOutcome> {
  const marker = randomUUID();
  const recorder = recordSinks();
  const controller = new AbortController();
  let settled = false;
  const faulty = host.exec({
    runtime: zoo.runtime,
    body: zoo.body ?? 'fault',
    target: zoo.target ?? null,
    env: { ...process.env, ZOO_RUN: marker },
    signal: controller.signal,
    sinks: recorder.sinks,
    ...(zoo.timeoutMs === undefined ? {} : { timeoutMs: zoo.timeoutMs }),
  });
  void faulty.finally(() => (settled = true));
  if (zoo.kept || zoo.abortAfterFirstWrite) await recorder.firstWrite;
  const during = await host.exec({ runtime: 'healthy', body: 'during' });
  expect(during.result).toEqual({ status: 200 });
  expect(during.channels.out!.text).toBe('during');
  if (zoo.abortAfterFirstWrite) {
    // It ignores its signal and nothing else ends it: it was in flight all along.
    expect(settled).toBe(false);
    controller.abort();
  }

  const out = await faulty;
  const callsAtSettle = recorder.calls.length;
  expect(out.result.status).toBe(zoo.status);
  if (zoo.problem === undefined) {
    expect(out.result.problem).toBeUndefined();
  } else {
    expect(out.result.problem?.type).toBe(`https://problems.plurnk.xyz/scheme/${zoo.problem}`);
    expect(out.result.problem?.status).toBe(zoo.status);
  }
  if (zoo.forcedEnd !== undefined) expect(out.containment?.forcedEnd).toEqual(zoo.forcedEnd);
  // Nothing reaches the embedding service for a channel the leaf did not declare.
  expect(recorder.calls.every((call) => Object.hasOwn(out.channels, call.channel))).toBe(true);
  for (const [name, channel] of Object.entries(out.channels)) {
    expect(['closed', 'errored']).toContain(channel.state);
    expect(recorder.calls.filter((c) => c.sink === 'setState' && c.channel === name).length).toBeLessThanOrEqual(1);
  }
  if (zoo.kept !== undefined) {
    expect(out.channels.out!.text.startsWith(zoo.kept)).toBe(true);
    expect(recorder.text('out').startsWith(zoo.kept)).toBe(true);
  }
  expect(survivors({ marker })).toEqual([]);

  if (zoo.next === 'unavailable') {
    const next = await host.exec({ runtime: zoo.runtime, body: 'ok' });
    expect(next.result.problem?.type).toBe('https://problems.plurnk.xyz/scheme/exec/runtime-unavailable');
  } else {
    const next = await host.exec({ runtime: zoo.runtime, body: zoo.next.body, target: zoo.next.target ?? null });
    expect(next.result.status).toBe(200);
    expect(next.channels.out!.text).toBe(zoo.next.text ?? 'ok');
  }
  const after = await host.exec({ runtime: 'healthy', body: 'after' });
  expect(after.result).toEqual({ status: 200 });
  expect(recorder.calls.length).toBe(callsAtSettle);
  return out;
}
