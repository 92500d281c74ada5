// What containment an engine has in effect, measured (docs/isolation.md): what its command asked
// for and the engine confirmed from inside before any leaf loaded. One engine's entry of
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
