import type * as v from 'valibot';
import type { RuntimeToolRegistry } from '../contracts/invocation.js';
import type { ChannelState } from '../contracts/channels.js';
import type { Effect } from '../contracts/effect.js';
import type { EntryOptions } from '../contracts/exec-args.js';
import type { ClientInteractionRequest, ClientInteractionResolution, Notice } from '../contracts/notice.js';
import type { Discovery } from '../contracts/registry.js';
import type { ExecResult } from '../contracts/result.js';
import type { Violation } from '../contracts/violation.js';
import type { ForcedEnd, ProbeFault } from './fault-kinds.js';
import type { ExecRequestSchema, HostOptionsSchema, RecyclePolicySchema, StreamAddressSchema } from './host-schemas.js';

/** When a thread that ran a run is replaced: after every run, never, or after a number of runs. */
export type RecyclePolicy = v.InferOutput<typeof RecyclePolicySchema>;

/**
 * Options of `createHost` (discovery's fields plus the host's own); `bootHost` reads the host's.
 * Derived from `HostOptionsSchema`, whose fields carry the documentation; only the two fields a
 * schema cannot type precisely are spelt out here.
 */
export type HostOptions = Omit<v.InferInput<typeof HostOptionsSchema>, 'env' | 'onProbe'> & {
  /** Policy and trust environment. Default: `process.env`. */
  env?: NodeJS.ProcessEnv;
  /** Called once per tag as its boot verdict arrives (progress for long boots); a throw is ignored. */
  onProbe?: (tag: string, availability: Availability) => void;
};

/** The embedding service's own sinks; each receives what the host accepted, in order. */
export interface EmbeddingSinks {
  write?(channel: string, chunk: string, mimetype?: string): void;
  setState?(channel: string, state: ChannelState): void;
  emit?(notice: Notice): void;
  /** Answers a leaf's interaction. Absent ⇒ every interaction resolves `{ status: 'cancelled' }` (as in 1.x). */
  interact?(request: ClientInteractionRequest): Promise<ClientInteractionResolution>;
  /** Materializes an entry. Absent ⇒ the leaf's `args.entry` is absent too. */
  entry?(path: string, content: string | null, opts: EntryOptions): Promise<string>;
}

/** Where a run's stream lives: `<tag>:///<loop>/<turn>/<sequence>`. */
export type StreamAddress = v.InferOutput<typeof StreamAddressSchema>;

/**
 * One EXEC as the embedding service hands it to the host. Derived from `ExecRequestSchema`,
 * whose fields carry the documentation; only the fields a schema cannot type precisely are spelt out here.
 */
export type ExecRequest = Omit<v.InferInput<typeof ExecRequestSchema>, 'env' | 'sinks'> & {
  /** Exact child environment for the run; also the thread's `process.env` while it runs. */
  env?: NodeJS.ProcessEnv;
  /** The embedding service's own sinks. */
  sinks?: EmbeddingSinks;
};

/** One output part: consecutive writes that share a mimetype. */
export interface ChannelPart {
  mimetype: string;
  text: string;
}

/** A declared channel as the run left it: always terminal once `exec` resolves. */
export interface ChannelOutput {
  /** The declared mimetype, or the last per-write mimetype. */
  mimetype: string;
  state: ChannelState;
  text: string;
  /** The text split where the per-write mimetype changed. */
  parts: ChannelPart[];
}

/** What `exec` resolves: never rejects for a leaf's fault, only for bad input or a closed host. */
export interface ExecOutcome {
  /** The validated result, or the failure the host minted for the run. */
  result: ExecResult;
  /** The one effect fact used, or null when the EXEC was refused before `effect()`. */
  effect: Effect | null;
  /** `<tag>:///<loop>/<turn>/<sequence>` when an address was given and a stream was created, else null. */
  address: string | null;
  channels: Record<string, ChannelOutput>;
  notices: Notice[];
  /**
   * Contract violations the host refused, in order: undeclared channels, illegal transitions,
   * invalid notices… Judge them by `kind` (a closed set, `VIOLATION_KINDS`); `detail` is for people.
   */
  violations: Violation[];
  /** What the host contained during the run beyond its result; absent when no run started. */
  containment?: RunContainment;
}

/** What a run did that the host contained rather than passed on. */
export interface RunContainment {
  /** Output the leaf printed (`console.*`, stdout, stderr) instead of writing to a channel: never printed by the host. */
  console: { bytes: number; text: string } | null;
  /** Processes still alive in the run's process groups when it ended, which the host then killed. */
  reapedProcesses: number;
  /**
   * Why the host ended the run rather than its own result (a deadline, a broken limit, a dead
   * thread…), and whether it had to terminate the thread to do so; null when the run's own
   * result stands. Judge by `reason` (`RUN_END_REASONS`), not by the Problem's wording.
   */
  forcedEnd: ForcedEnd | null;
}

/** A tag's cached probe verdict. */
export interface Availability {
  available: boolean;
  /**
   * Present when the tag is unavailable through the leaf's own fault, judged by the host (it
   * threw, overran, answered nonsense…); absent when the leaf's probe itself said whether it
   * can run here (an unavailable tag without `fault` lacks something in its environment).
   */
  fault?: ProbeFault;
  detail?: string;
  /** How long the probe took, from the moment `probe()` started in its thread. */
  probeMs: number;
  /** Present while the crash-loop breaker holds the tag: exec fails 503 `runtime-degraded` until the cool-down passes. */
  degraded?: { reason: string; crashes: number; retryInMs: number };
}

/** Which containment a host has in effect (docs/isolation.md); never guessed, always measured. */
export interface Isolation {
  /** `'process'`: the leaves' threads live in an engine process; `'thread'`: in the caller's process. */
  tier: 'process' | 'thread';
  /** The engine is the init of a PID namespace of its own (it saw itself as pid 1). */
  pidNamespace: boolean;
  /** Node's permission model holds the engine's file writes (it saw `process.permission`). */
  permissionModel: boolean;
}

/** The isolating host (`@plurnk/plurnk-execs/host`). */
export interface Host {
  readonly discovery: Discovery;
  /** The boot verdict of a registered tag; undefined for any other. */
  availability(tag: string): Availability | undefined;
  /** Registered, available tags, sorted. */
  availableRuntimes(): string[];
  /**
   * The validated exact tool family of an available tag whose executor defines
   * `toolRegistry()` (read once at boot), else undefined. Its tools replace the runtime's
   * invocation for admission and for the tool documents (§executor-tool-registry).
   */
  toolRegistry(tag: string): RuntimeToolRegistry | undefined;
  /** The admission fact of `target` for `tag` ('' ⇒ the default runtime), from the tag's own thread. */
  effect(tag: string, target: string | null): Promise<Effect>;
  /** Runs one EXEC in a thread of its tag. */
  exec(request: ExecRequest): Promise<ExecOutcome>;
  /** Which containment is in effect: the tier, and in the process tier whether a PID namespace and the permission model hold. */
  isolation(): Isolation;
  /** Settles in-flight runs 499, terminates every thread, reaps every process group. Idempotent. */
  close(): Promise<void>;
}
