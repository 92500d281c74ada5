import * as v from 'valibot';
import { ChannelStateSchema } from '../contracts/channels.js';
import { EffectSchema } from '../contracts/effect.js';
import { NoticeSchema } from '../contracts/notice.js';
import type { WireAbortReason } from '../contracts/protocol.js';
import type { Discovery } from '../contracts/registry.js';
import { ToolRegistrySchema } from '../discovery/tool-registry.js';
import { PROBE_FAULTS } from '../model/fault-kinds.js';
import type { ResolvedHostOptions } from '../model/host-options.js';
import { EventFrameSchema, StatsFrameSchema, type ObserveServiceMessage } from './observe-wire.js';
import { ExecOutcomeSchema } from './outcome-schema.js';
import { SandboxFactsSchema } from './sandbox/sandbox-facts.js';

// The wire between the service and its engine process. What the engine sends is hostile input
// (any thread in the engine can write to the channel's fd): every frame is checked against
// these schemas, and one that fails restarts the engine. What the service sends is checked by
// the engine too, more loosely: it trusts its service.

const Id = v.pipe(v.number(), v.integer(), v.minValue(0));
const Text = v.string();

/** Schema of a tag's `Availability` as the engine reports it. */
export const AvailabilitySchema = v.strictObject({
  available: v.boolean(),
  fault: v.optional(v.picklist(PROBE_FAULTS)),
  detail: v.optional(Text),
  probeMs: v.pipe(v.number(), v.minValue(0)),
  degraded: v.optional(v.strictObject({ reason: Text, crashes: Id, retryInMs: v.number() })),
});

/** What the engine knows of its tags: every verdict, the available list, the tool families. */
export const EngineStateSchema = v.strictObject({
  availability: v.record(Text, AvailabilitySchema),
  available: v.array(Text),
  toolRegistries: v.record(Text, ToolRegistrySchema),
});
/** What the engine knows of its tags. */
export type EngineState = v.InferOutput<typeof EngineStateSchema>;

/** A serialized error as the engine sends it (a rejection of the thread host's own API). */
const WireErrorSchema = v.strictObject({ name: Text, message: Text, code: v.optional(Text) });

/** One sink call the engine forwards, in the leaf's order: only what its thread host accepted. */
export const SinkCallSchema = v.union([
  v.tuple([v.literal('write'), Text, Text, v.optional(Text)]),
  v.tuple([v.literal('writes'), Text, v.pipe(v.array(Text), v.minLength(2))]),
  v.tuple([v.literal('setState'), Text, ChannelStateSchema]),
  v.tuple([v.literal('emit'), NoticeSchema]),
]);
/**
 * One forwarded sink call (a write's mimetype is left out when the leaf gave none). `writes` is
 * one run's consecutive writes to one channel without a mimetype, each chunk still its own write
 * (sink-batch.ts): one call on the wire, not one array per chunk.
 */
export type SinkCall =
  | ['write', string, string, string?]
  | ['writes', string, string[]]
  | ['setState', string, v.InferOutput<typeof ChannelStateSchema>]
  | ['emit', v.InferOutput<typeof NoticeSchema>];

/** Every frame the engine may send. */
export const EngineMessageSchema = v.variant('t', [
  /**
   * First frame, sent on the boot frame before any leaf is loaded: what containment the engine
   * found itself in — its pid, whether it runs under its init in a PID namespace other than the
   * service's (namespace-init.ts), whether `process.permission` exists, and what it sees of its sandbox.
   */
  v.strictObject({
    t: v.literal('hello'),
    pid: Id,
    pidNamespace: v.boolean(),
    permissionModel: v.boolean(),
    /** What it sees of its sandbox (sandbox/sandbox-facts.ts). */
    sandbox: SandboxFactsSchema,
  }),
  /**
   * Sent by the engine's main thread every `heartbeatMs` of the boot frame: it still answers.
   * `acks`: the exec and effect frames it read since the last one, by id, in the order it read
   * them (ack-batch.ts) — one never acknowledged was taken off the channel by someone else, and
   * its engine is unresponsive (call-ledger.ts); `state`: its state, when that changed since it
   * last sent it (state-changes.ts).
   */
  v.strictObject({
    t: v.literal('heartbeat'),
    acks: v.optional(v.pipe(v.array(Id), v.minLength(1))),
    state: v.optional(EngineStateSchema),
  }),
  v.strictObject({ t: v.literal('probe'), tag: Text, availability: AvailabilitySchema }),
  v.strictObject({ t: v.literal('booted'), state: EngineStateSchema }),
  v.strictObject({ t: v.literal('boot-failed'), error: WireErrorSchema }),
  /** The sink calls of one event-loop turn, every run's, in order (sink-batch.ts). */
  v.strictObject({
    t: v.literal('sinks'),
    calls: v.pipe(v.array(v.strictTuple([Id, SinkCallSchema])), v.minLength(1)),
  }),
  v.strictObject({
    t: v.literal('sink-request'),
    id: Id,
    call: Id,
    name: v.picklist(['interact', 'entry']),
    args: v.array(v.unknown()),
  }),
  v.strictObject({
    t: v.literal('outcome'),
    id: Id,
    outcome: ExecOutcomeSchema,
    // Each channel's part lengths: the text itself was forwarded write by write (forwarded-text.ts).
    lengths: v.record(v.string(), v.array(v.pipe(v.number(), v.safeInteger(), v.minValue(0)))),
    // Absent while it is what the engine last sent (state-changes.ts).
    state: v.optional(EngineStateSchema),
    // How long the run waited in the engine for its thread (the `exec` trace, host.stats()).
    queueMs: v.optional(v.pipe(v.number(), v.finite(), v.minValue(0))),
  }),
  v.strictObject({ t: v.literal('exec-error'), id: Id, error: WireErrorSchema }),
  v.strictObject({ t: v.literal('effect'), id: Id, effect: EffectSchema }),
  v.strictObject({ t: v.literal('effect-error'), id: Id, error: WireErrorSchema }),
  v.strictObject({ t: v.literal('closed') }),
  // Observing (observe-wire.ts): the answer to `stats`, and the events the service listens to.
  StatsFrameSchema,
  EventFrameSchema,
]);
/** A frame from the engine, once validated. */
export type EngineMessage = v.InferOutput<typeof EngineMessageSchema>;

/** The discovery the engine boots over: no service environment, only what the leaves own. */
export type EngineDiscovery = Omit<Discovery, 'notices'>;

/**
 * The options the engine's thread tier boots with: the service's, resolved once there (no
 * function; no permissions, the engine's own; no engine groups, the service's business).
 */
export type EngineHostOptions = Omit<ResolvedHostOptions, 'onProbe' | 'permissions' | 'engines'>;

/** The request of one run as it crosses: the caller's signal and sinks stay with the service. */
export interface WireExecRequest {
  runtime: string;
  body: string;
  target?: string | null;
  cwd?: string | null;
  env?: Record<string, string>;
  timeoutMs?: number;
  address?: { loop: number; turn: number; sequence: number };
  effect?: 'pure' | 'read' | 'host';
  /** Which of the service's answering sinks exist (write, setState and emit are always forwarded). */
  interact: boolean;
  entry: boolean;
}

/** Every frame the service sends its engine. */
export type ServiceMessage =
  /** `servicePidNamespace`: the service's own PID namespace, which the engine's must differ from (namespace-init.ts). */
  | {
      t: 'boot';
      discovery: EngineDiscovery;
      options: EngineHostOptions;
      heartbeatMs: number;
      servicePidNamespace: string | null;
    }
  /** `aborted`: the caller's signal had aborted before the run was sent, so it starts aborted, as in the thread tier. */
  | { t: 'exec'; id: number; request: WireExecRequest; aborted?: WireAbortReason }
  | { t: 'abort'; id: number; reason: WireAbortReason }
  | { t: 'effect'; id: number; tag: string; target: string | null }
  | { t: 'sink-reply'; id: number; call: number; ok: boolean; value?: unknown; error?: string }
  | { t: 'close' }
  | ObserveServiceMessage;
