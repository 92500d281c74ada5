import type { EngineDeathCause } from '../fault-kinds.js';
import type { Effect } from '../../contracts/effect.js';
import type { ViolationKind } from '../../contracts/violation.js';
import type { OutcomeClass } from '../outcome-class.js';

// What the host publishes on `node:diagnostics_channel` (docs/host.md "Observing the host"): one
// naming scheme, `plurnk-execs:<subject>[:<event>]`, and for each channel the plain data it
// carries. A service may log a payload as it is: every field is JSON, and text that came from a
// leaf is cut to EVENT_TEXT_CHARS.

/** Every channel the host publishes on, by what it tells. */
export const OBSERVE_CHANNELS = {
  /** A `TracingChannel` (`tracing:plurnk-execs:exec:start|end|asyncStart|asyncEnd|error`): one per EXEC. */
  exec: 'plurnk-execs:exec',
  /** A `TracingChannel`: one per `host.effect()` call. */
  effect: 'plurnk-execs:effect',
  engineStart: 'plurnk-execs:engine:start',
  engineCrash: 'plurnk-execs:engine:crash',
  engineRestart: 'plurnk-execs:engine:restart',
  engineUnresponsive: 'plurnk-execs:engine:unresponsive',
  tagDegraded: 'plurnk-execs:tag:degraded',
  tagRestored: 'plurnk-execs:tag:restored',
  threadRetired: 'plurnk-execs:thread:retired',
  violation: 'plurnk-execs:violation',
} as const;

/** Leaf-supplied text in an event (a crash's cause, a violation's detail) is cut to this many characters. */
export const EVENT_TEXT_CHARS = 1024;

/**
 * Why a thread was retired (`plurnk-execs:thread:retired`), a closed set:
 * - `recycled`: it ran as many runs as `recycle` allows (after every run under `'each-run'`).
 * - `poisoned`: its task overran, was cancelled past grace or broke the protocol, so it is suspect.
 * - `crashed`: it died (exited, ran out of memory, let an error escape).
 * - `idle-load`: its event loop stayed busy with no task in flight (work the leaf left running).
 * - `spare-decay`: a warm spare its tag's demand no longer wants.
 * - `host-closed`: the host closed (or the tag proved unavailable at boot).
 */
export const RETIRE_REASONS = ['recycled', 'poisoned', 'crashed', 'idle-load', 'spare-decay', 'host-closed'] as const;

/** One of {@link RETIRE_REASONS}. */
export type RetireReason = (typeof RETIRE_REASONS)[number];

/** An error as a trace carries it: the host's own (a leaf's text in it is cut). */
export interface TracedError {
  name: string;
  message: string;
  /** The `PlurnkExecsError` code, when it has one. */
  code?: string;
}

/** The context object of every `tracing:plurnk-execs:exec:*` event: one object per EXEC, filled in as it goes. */
export interface ExecTrace {
  /** The tag (the default runtime resolved). */
  runtime: string;
  /** `<tag>:///<loop>/<turn>/<sequence>` when the request gave an address, else null. */
  address: string | null;
  /** Set before `asyncStart`/`asyncEnd` once the EXEC settled. */
  result?: {
    outcome: OutcomeClass;
    status: number;
    /** From the front door's call to the outcome. */
    durationMs: number;
    /** How long the run waited for its thread (and, in the process tier, its engine); null when it never queued (refused first). */
    queueMs: number | null;
  };
  /** Set before `error` when `exec` rejected (a host bug: a leaf's fault is an outcome, never a rejection). */
  error?: TracedError;
}

/** The context object of every `tracing:plurnk-execs:effect:*` event. */
export interface EffectTrace {
  runtime: string;
  /** The target asked about, cut to {@link EVENT_TEXT_CHARS}. */
  target: string | null;
  result?: { effect: Effect; durationMs: number };
  /** Set before `error`: `effect` rejected (`runtime-unavailable`, `effect-failed`, `host-closed`). */
  error?: TracedError;
}

/** Which containment an engine confirmed from inside (as `host.isolation()` says). */
export interface EngineContainment {
  pidNamespace: boolean;
  permissionModel: boolean;
}

/** `plurnk-execs:engine:start`: an engine process booted (the first, or one after a restart). */
export interface EngineStartEvent {
  /** The engine's process id as the service sees it. */
  pid: number | null;
  /** The leaf packages the engine holds. */
  packages: string[];
  /** Engines booted before this one for these packages. */
  restarts: number;
  /** From its spawn to its `booted` frame (every tag probed). */
  bootMs: number;
  containment: EngineContainment;
}

/** `plurnk-execs:engine:crash`: a booted engine died, or was killed (a corrupt frame, silence). */
export interface EngineCrashEvent {
  pid: number | null;
  packages: string[];
  /** Why it ended, as the runs in flight say it (`engine-crashed`, or `engine-unresponsive` when the watchdog killed it). */
  end: 'engine-crashed' | 'engine-unresponsive';
  /** What ended it: an exit code or signal, the corrupt frame, the silence. */
  cause: string;
  /** Runs in flight in it, which settle 500 `end`. */
  runsInFlight: number;
  /** What the host could tell of the death beyond `cause`: `engine-out-of-memory` when its cgroup's OOM killer ended it. */
  deathCause?: EngineDeathCause;
}

/** `plurnk-execs:engine:restart`: the host starts another engine for these packages, after `delayMs`. */
export interface EngineRestartEvent {
  packages: string[];
  /** Which restart this is (1 for the first since the host booted). */
  restart: number;
  delayMs: number;
  /** Why the last engine ended (or why the last restart failed to boot). */
  cause: string;
}

/** `plurnk-execs:engine:unresponsive`: a booted engine's main thread sent nothing for `unresponsiveMs`; it is killed next. */
export interface EngineUnresponsiveEvent {
  pid: number | null;
  packages: string[];
  unresponsiveMs: number;
  cause: string;
}

/** `plurnk-execs:tag:degraded`: the crash-loop breaker opened for a tag (or its cool-down began again). */
export interface TagDegradedEvent {
  tag: string;
  /** Crashes within the breaker window. */
  crashes: number;
  /** The last crash. */
  reason: string;
  /** Until the tag may run again. */
  retryInMs: number;
}

/** `plurnk-execs:tag:restored`: a degraded tag's first run after its cool-down ended cleanly: the breaker closed. */
export interface TagRestoredEvent {
  tag: string;
}

/** `plurnk-execs:thread:retired`: one of a tag's threads was retired. */
export interface ThreadRetiredEvent {
  tag: string;
  threadId: number;
  why: RetireReason;
  /** What the thread's end says (its death, its idle load), when it says more than `why`. */
  detail: string | null;
  /** Runs it ran. */
  runs: number;
}

/** `plurnk-execs:violation`: one contract violation recorded in an EXEC's outcome. */
export interface ViolationEvent {
  tag: string;
  kind: ViolationKind;
  address: string | null;
  detail: string;
}

/** The payload of each plain channel, by name. */
export interface ObserveEvents {
  'plurnk-execs:engine:start': EngineStartEvent;
  'plurnk-execs:engine:crash': EngineCrashEvent;
  'plurnk-execs:engine:restart': EngineRestartEvent;
  'plurnk-execs:engine:unresponsive': EngineUnresponsiveEvent;
  'plurnk-execs:tag:degraded': TagDegradedEvent;
  'plurnk-execs:tag:restored': TagRestoredEvent;
  'plurnk-execs:thread:retired': ThreadRetiredEvent;
  'plurnk-execs:violation': ViolationEvent;
}

/** A plain channel's name. */
export type EventName = keyof ObserveEvents;
