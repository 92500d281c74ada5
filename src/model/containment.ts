// What containment a host has in effect, measured (docs/isolation.md): what each engine's command
// asked for and the engine confirmed from inside before any leaf loaded. One engine's entry of
// `host.isolation().engines` is made of these, and the flat `Isolation` summarizes them.

/** The sandbox layers of an engine (docs/isolation.md "The sandbox"); each absent in the thread tier. */
export interface SandboxLayerFields {
  /**
   * The engine's capabilities: `'none'` when it saw every capability set empty (bounding,
   * permitted, effective, inheritable, ambient) and `no_new_privs` set, so neither it nor any
   * process it starts holds or can gain a privilege, root or not; `'inherited'` when it runs with
   * what the service gave it. Absent in the thread tier.
   */
  capabilities?: 'none' | 'inherited';
  /**
   * `'read-only'` when the engine saw every mount read-only outside `permissions.fsWrite` (and
   * its own /proc and /dev/shm), for itself and every process it starts; `'open'` when it may
   * write wherever the service's user may. Absent in the thread tier.
   */
  fsView?: 'read-only' | 'open';
  /**
   * The engine's own cgroup, as the service read its bounds back: `memoryBytes` (from
   * `limits.engineMemoryMb`) and `pids` (`limits.enginePids`) hold the engine and everything it
   * starts; null when it has none. Absent in the thread tier.
   */
  cgroup?: { memoryBytes: number; pids: number } | null;
  /** `'own'`: the engine has a network namespace of its own, a loopback alone; `'shared'`: the service's network. Absent in the thread tier. */
  network?: 'own' | 'shared';
  /**
   * Why each sandbox layer above is not in effect, by layer: not Linux, no user namespaces,
   * no writable cgroup, an option that lifted it… Absent when every layer holds, and in the thread tier.
   */
  missing?: SandboxGaps;
}

/** Why a sandbox layer of an engine is not in effect (`Isolation.missing`), one sentence per layer. */
export interface SandboxGaps {
  capabilities?: string;
  fsView?: string;
  cgroup?: string;
  network?: string;
}

/** One engine's containment, as its supervisor measured it. */
export interface EngineContainment extends SandboxLayerFields {
  /** It runs in a PID namespace of its own, under the namespace's init (it saw a namespace other than the service's, and the init as its parent). */
  pidNamespace: boolean;
  /** Node's permission model holds its file writes (it saw `process.permission`). */
  permissionModel: boolean;
  /** How many processes its namespace's init has reaped since it started; absent where the init cannot count or there is none. */
  zombiesReaped?: number;
}

/** The two facts of an engine's containment its events and `host.stats()` carry. */
export type ConfirmedContainment = Pick<EngineContainment, 'pidNamespace' | 'permissionModel'>;

/** One engine process of the process tier: the packages it runs, and its containment. */
export interface EngineIsolation extends EngineContainment {
  /** The leaf packages whose threads run in it (one, unless `engines.shared` grouped several). */
  packages: string[];
  /** Their served tags, in discovery order. */
  tags: string[];
  /** The engine's pid as the service sees it; null while it is being restarted. */
  pid: number | null;
}

/** Which containment a host has in effect (docs/isolation.md); never guessed, always measured. */
export interface Isolation extends SandboxLayerFields {
  /** `'process'`: the leaves' threads live in an engine process; `'thread'`: in the caller's process. */
  tier: 'process' | 'thread';
  /**
   * Every engine runs in a PID namespace of its own, under the namespace's init, which reaps the
   * orphans its runs leave (each engine saw a namespace other than the service's, and the init
   * as its parent). False with no engine running.
   */
  pidNamespace: boolean;
  /** Node's permission model holds every engine's file writes (each saw `process.permission`). */
  permissionModel: boolean;
  /**
   * How many processes the current engines' namespace inits have reaped (waited for) since each
   * engine started — orphans their runs left, each a zombie until then — as the inits themselves
   * count them, summed. Absent in the thread tier, without a namespace, or where the init cannot
   * count (the `sh` init, where Perl is missing). A restarted engine counts from 0.
   */
  zombiesReaped?: number;
  /**
   * The process tier's engines, one entry per engine process (by default one per leaf package);
   * absent in the thread tier. The fields above summarize them: a containment or sandbox layer
   * holds only when it holds in every engine, `zombiesReaped` is their sum, `missing` names the
   * first engine's reason for each layer that does not hold somewhere.
   */
  engines?: EngineIsolation[];
}
