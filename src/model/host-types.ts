import type { RuntimeToolRegistry } from '../contracts/invocation.js';
import type { ChannelState } from '../contracts/channels.js';
import type { Effect } from '../contracts/effect.js';
import type { EntryOptions } from '../contracts/exec-args.js';
import type { ClientInteractionRequest, ClientInteractionResolution, Notice } from '../contracts/notice.js';
import type { Discovery } from '../contracts/registry.js';
import type { Limits } from '../contracts/limits.js';
import type { ExecResult } from '../contracts/result.js';
import type { Violation } from '../contracts/violation.js';
import type { Isolation } from './containment.js';
import type { ForcedEnd, ProbeFault } from './fault-kinds.js';
import type { HostStats } from './observe/host-stats.js';
import type { OutcomeClass } from './outcome-class.js';

export type {
  ConfirmedContainment,
  EngineContainment,
  EngineIsolation,
  Isolation,
  SandboxGaps,
  SandboxLayerFields,
} from './containment.js';

/** When a thread that ran a run is replaced: after every run, never, or after a number of runs. */
export type RecyclePolicy = 'each-run' | 'never' | { afterRuns: number };

/**
 * Options of `createHost` (discovery's fields plus the host's own); `bootHost` reads the host's.
 * `HostOptionsSchema` validates them and is checked at compile time to agree with this
 * interface, which is what the package ships (host-schemas.ts).
 */
export interface HostOptions {
  /** Discovery root (the nearest node_modules above it). Default: `process.cwd()`. */
  cwd?: string;
  /** Explicit package directories to discover instead of scanning node_modules. */
  packageDirs?: string[];
  /** Policy and trust environment. Default: `process.env`. */
  env?: NodeJS.ProcessEnv;
  /** How long one tag's `probe()` may take at boot. Default 3000. */
  probeTimeoutMs?: number;
  /**
   * How long a thread may take to start, import and construct its leaf before a probe, an
   * `effect()` call or a run gives up on it (a leaf that spins at import). Default 15 000.
   */
  loadTimeoutMs?: number;
  /** A tag that must be registered and available, or boot fails naming it. */
  defaultRuntime?: string;
  /** When a thread that ran a run is replaced. Default `'each-run'`. */
  recycle?: RecyclePolicy;
  /** Called once per tag as its boot verdict arrives (progress for long boots); a throw is ignored. */
  onProbe?: (tag: string, availability: Availability) => void;
  /** The only tags this host serves (policy still applies on top). Default: every installed tag. */
  tags?: string[];
  /**
   * What an invalid leaf package does to the boot. `'fail'` (default) rejects with
   * `invalid-declaration`, as the specification makes a bad declaration a fail-hard contract
   * violation, so the author sees it at once; `'skip'` boots with the valid leaves and lists
   * the bad package with every error in `host.discovery.invalid`. A package whose every tag is
   * excluded by policy or `tags` never fails the boot.
   */
  onInvalidLeaf?: 'fail' | 'skip';
  /** How long one package's `runtimesModule` hook may take during discovery. Default 10 000. */
  hookTimeoutMs?: number;
  /**
   * Where the leaves' threads live (docs/isolation.md): `'process'`, an engine process of the
   * host's own (restarted when it dies, in a PID namespace where the platform gives one, under
   * Node's permission model); `'thread'`, the caller's own process. Default `'process'`.
   * `createHost` only: `bootHost` is the thread tier.
   */
  isolation?: 'process' | 'thread';
  /**
   * What the process tier's engine may do (docs/isolation.md). `fsWrite`: the directories the
   * engine and every process it starts may write under — Node's permission model holds the
   * engine's own code to them, and its read-only view of the filesystem every child (default:
   * `cwd` and the temp directory; `['/']` lifts the view, never the model). `addons`: whether a
   * leaf may load native addons (default false: `process.dlopen` and `.node` imports are
   * refused). `network`: whether the engine shares the service's network (default true); false
   * gives it a network namespace of its own, with a loopback and nothing else.
   */
  permissions?: { fsWrite?: string[]; addons?: boolean; network?: boolean };
  /**
   * The process tier's engines (docs/isolation.md): by default every leaf package gets an engine
   * process of its own, so no package's leaves can reach another's runs. `shared` lists groups
   * of packages the service trusts together, each group run in one engine (names as in their
   * package.json; a package in no group keeps its own engine). Default: no group.
   */
  engines?: { shared?: string[][] };
  /** The crash-loop breaker (docs/faults.md): `crashes` within `windowMs` degrade a tag for `cooldownMs`. Defaults 3, 300 000, 60 000. */
  breaker?: { crashes?: number; windowMs?: number; cooldownMs?: number };
  /**
   * The admission queue in front of thread starts (docs/host.md "Load"): at most `threadStarts`
   * threads start at once (`threadStartsPerTag` of one tag); a run that needs a new thread past
   * that waits, and fails 503 `host-overloaded` after `queueTimeoutMs` in the queue. No deadline
   * that judges a leaf runs while it waits. Defaults: one start per core (`os.availableParallelism()`),
   * half of them per tag (rounded up), 60 000.
   */
  admission?: { threadStarts?: number; threadStartsPerTag?: number; queueTimeoutMs?: number };
  /**
   * Warm spares (docs/host.md "Load"): each tag keeps as many never-used threads as its runs
   * lately needed at once, started off the EXEC's path, at most `max` host-wide; a tag's wanted
   * spares halve for every `idleMs` without that demand, down to none. Defaults 16, 60 000.
   */
  spares?: { max?: number; idleMs?: number };
  /**
   * What one thread and one run may use; every limit has a default (docs/faults.md). Each field
   * is documented, with its default, on `Limits` (contracts/limits.ts), the one record the host
   * resolves these into and passes down whole.
   */
  limits?: Partial<Limits>;
}

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
export interface StreamAddress {
  loop: number;
  turn: number;
  sequence: number;
}

/** One EXEC as the embedding service hands it to the host (`ExecRequestSchema` validates it). */
export interface ExecRequest {
  /** The runtime tag; '' means the default runtime (`defaultRuntime`, else `sh`, as 1.x). */
  runtime: string;
  /** The EXEC body. */
  body: string;
  /** The authored target, realized by the tag's declared target kind; null or absent for none. */
  target?: string | null;
  /** The run's working directory; null or absent for the host process's. */
  cwd?: string | null;
  /** Exact child environment for the run; also the thread's `process.env` while it runs. */
  env?: NodeJS.ProcessEnv;
  /** Cancellation: the reason reaches the leaf's `args.signal` unchanged. */
  signal?: AbortSignal;
  /** Deadline of the run; past it the run is aborted and settles 504 `execution-timeout`. */
  timeoutMs?: number;
  /** Where the run's stream lives; the outcome's `address` is built from it. */
  address?: StreamAddress;
  /**
   * The admission fact the service already has (from `host.effect()` at proposal time): the
   * host uses it and does not call `effect()` again. Absent ⇒ the host calls it once.
   */
  effect?: Effect;
  /** The embedding service's own sinks. */
  sinks?: EmbeddingSinks;
}

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
  /**
   * How the EXEC ended, in one word: branch on this, not on Problem type URIs. A closed set
   * (`OUTCOME_CLASSES`): `ok`, `failed`, `cancelled`, `timeout`, `refused`, `leaf-fault`,
   * `host-fault`; docs/host.md says what each means.
   */
  outcome: OutcomeClass;
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
  /** What the run used, as the host measured it (not as the leaf said); absent when the run's thread could not tell (its engine died). */
  usage?: RunUsage;
  /**
   * What the engine's cgroup refused while the run was in flight, as the cgroup counted it:
   * `forksRefused`, forks and threads past `limits.enginePids`; `oomKills`, processes the kernel's
   * OOM killer ended at `limits.engineMemoryMb`. The cgroup is the engine's, so every run in
   * flight at the time sees the same refusals; a run begun within a millisecond of the cgroup's
   * last reading (another run's start or end) counts from that reading, so a refusal in that
   * millisecond may be counted in it.
   * Absent in the thread tier and where the engine has no cgroup.
   */
  sandbox?: { forksRefused: number; oomKills: number };
}

/** What one run used, measured by the host (`containment.usage`): what `plurnk-execs check` reports a leaf did. */
export interface RunUsage {
  /**
   * Processes the run's thread started: every child of a `node:child_process` call leads a
   * process group of its own and is reported by the thread as it starts, and each group the
   * host judged the run's own, or found already gone, counts once. The children's own children
   * are not counted.
   */
  processesStarted: number;
  /**
   * The largest memory (JS heap plus memory outside it) the run's thread reported in a
   * heartbeat while the run was in flight, in bytes; null when the run ended before its first
   * heartbeat (`limits.heartbeatMs`).
   */
  peakThreadBytes: number | null;
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
  /**
   * What the host is doing, as plain JSON (docs/host.md "Observing the host"): runs by outcome,
   * latency and queue wait per tag, threads, breakers, violations, engines. Cheap to call
   * often; in the process tier the engine's part is one round trip to it, bounded.
   */
  stats(): Promise<HostStats>;
  /** Settles in-flight runs 499, terminates every thread, reaps every process group. Idempotent. */
  close(): Promise<void>;
}
