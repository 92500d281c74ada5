import * as v from 'valibot';
import { schemaAgrees, type SameType } from './same-type.js';
import { strictKeys } from './strict-keys.js';

// What one thread and one run may use: one record, in one place. The host resolves it once from
// `HostOptions.limits` (model/host-options.ts: these defaults, and the machine's memory for
// `rssMb`) and passes it whole to each thread it starts (`WorkerBoot.limits`), to each run's
// guard, stream and sink port, and in the process tier to the engine. A new limit is a field
// here (with its JSDoc default, its default and its schema) and the code that holds a run to it
// (docs/architecture.md walks one through).

/** Every limit of a host, resolved. `HostOptions.limits` is the same record with every field optional. */
export interface Limits {
  /** JS heap cap of each executor thread (worker `resourceLimits.maxOldGenerationSizeMb`). Default 1024. */
  heapMb: number;
  /** Cap on a thread's memory outside its JS heap (Buffers, ArrayBuffers, WebAssembly), as it reports it. Default 1024. */
  externalMb: number;
  /**
   * Cap on the host process's resident memory while runs are in flight (in the process tier, the engine process's):
   * past it the likeliest run is ended. Default half the machine's or container's memory.
   */
  rssMb: number;
  /**
   * Process tier: hard bound on the memory one engine and every process it starts may hold, its cgroup's memory limit
   * where a cgroup can be had (docs/isolation.md). Past it the kernel's OOM killer ends the largest process there: a
   * leaf's child, or the engine, whose runs then settle `engine-crashed` (`engine-out-of-memory`). Default 1.5 × `rssMb`, at least `rssMb` + 512.
   */
  engineMemoryMb: number;
  /**
   * Process tier: processes and threads one engine and everything it starts may hold at once, its cgroup's pids
   * limit where a cgroup can be had: a fork or thread past it fails (`EAGAIN`), and the engine keeps serving. An idle
   * engine holds about a dozen (its threads and its init). Default 1024.
   */
  enginePids: number;
  /** UTF-8 bytes one run may write across its channels; past it the run fails `output-limit-exceeded`. Default 16 MiB. */
  outputBytes: number;
  /** Bytes of notices (their JSON) one run may emit; later ones are dropped and counted. Default 1 MiB. */
  noticeBytes: number;
  /** Bytes of a run's result Problem (its JSON: detail and extensions); a bigger one is 500 `executor-invalid-result`. Default 64 KiB. */
  problemBytes: number;
  /** Bytes of violation text kept per run (each violation is cut to 1 KiB); later ones are counted. Default 64 KiB. */
  violationBytes: number;
  /** Console output kept per run for `containment.console` (the rest is counted). Default 4096. */
  consoleBytes: number;
  /** Grace after an abort before the thread is terminated, and between SIGHUP and SIGKILL. Default 2000. */
  graceMs: number;
  /** How often a busy thread sends a heartbeat (and the host checks its limits); in the process tier, the engine's main thread too. Default 250. */
  heartbeatMs: number;
  /**
   * Silence after which a running thread is `executor-unresponsive` and terminated; in the process tier, after which the
   * engine is killed and restarted (its runs in flight: `engine-unresponsive`). Default 30 000.
   */
  unresponsiveMs: number;
  /**
   * `interact()` calls one run may have pending at once. An interaction waits for a person or
   * the embedding service, so a leaf never needs many in flight (3,000 at once all reached the
   * embedding service's sink before there was a cap); one past it is refused at once (the leaf's
   * promise rejects, an `invalid-interaction` violation is recorded) without asking the service.
   * Held on the host, since a leaf can post on its port directly. Default 16.
   */
  pendingInteractions: number;
  /**
   * Messages one run may post on its sink port. Each is applied on the host's main thread, which
   * every other tag's runs share: a leaf flooding its port for 4 s made a 5 ms run of another
   * tag take 3.5–6.3 s. The thread stops posting at it (later sink calls are dropped) and tells
   * the host; the host counts what it receives too, and past it (and a little slack for the
   * flush) closes the port. Either way the run ends like one past `outputBytes`. The stream
   * benchmark's largest run, 100,000 16-byte writes, is a tenth of the default. Default 1 000 000.
   */
  sinkMessages: number;
}

/** The limits whose default depends on the machine (model/defaults.ts): a thread's defaults go without them. */
export type MachineLimit = 'rssMb' | 'engineMemoryMb';

/** The default of every limit but the machine's ({@link MachineLimit}). */
export const DEFAULT_LIMITS: Readonly<Omit<Limits, MachineLimit>> = Object.freeze({
  heapMb: 1024,
  externalMb: 1024,
  outputBytes: 16 * 1024 * 1024,
  noticeBytes: 1024 * 1024,
  problemBytes: 64 * 1024,
  violationBytes: 64 * 1024,
  consoleBytes: 4096,
  graceMs: 2000,
  heartbeatMs: 250,
  unresponsiveMs: 30_000,
  pendingInteractions: 16,
  sinkMessages: 1_000_000,
  enginePids: 1024,
});

const PositiveMs = v.pipe(v.number(), v.finite(), v.minValue(1));
const PositiveInteger = v.pipe(v.number(), v.integer(), v.minValue(1));
const Count = v.pipe(v.number(), v.integer(), v.minValue(0));

const limitOptionsSchema = strictKeys({
  heapMb: v.optional(v.pipe(v.number(), v.integer(), v.minValue(8))),
  externalMb: v.optional(PositiveInteger),
  rssMb: v.optional(PositiveInteger),
  engineMemoryMb: v.optional(PositiveInteger),
  enginePids: v.optional(PositiveInteger),
  outputBytes: v.optional(PositiveInteger),
  noticeBytes: v.optional(PositiveInteger),
  problemBytes: v.optional(PositiveInteger),
  violationBytes: v.optional(PositiveInteger),
  consoleBytes: v.optional(Count),
  graceMs: v.optional(v.pipe(v.number(), v.finite(), v.minValue(0))),
  heartbeatMs: v.optional(PositiveMs),
  unresponsiveMs: v.optional(PositiveMs),
  pendingInteractions: v.optional(PositiveInteger),
  sinkMessages: v.optional(PositiveInteger),
});
schemaAgrees<SameType<v.InferOutput<typeof limitOptionsSchema>, Partial<Limits>>>();

/** Schema of `HostOptions.limits`: strict, every field optional, each proved to agree with {@link Limits}. */
export const LimitOptionsSchema: v.GenericSchema<Partial<Limits>> = limitOptionsSchema;
