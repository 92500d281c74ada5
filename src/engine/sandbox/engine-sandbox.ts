import { realpathSync } from 'node:fs';
import type { SandboxGaps, SandboxLayerFields } from '../../model/containment.js';
import { findCgroupLayout, type CgroupLayout } from './cgroup-layout.js';
import { EngineCgroup, type CgroupRefusals } from './engine-cgroup.js';
import { isUnder } from './mount-table.js';
import { MAX_LISTED, netNamespaceId, type SandboxFacts } from './sandbox-facts.js';
import { DROP_PRIVILEGES, detectSandboxSupport } from './sandbox-support.js';
import { setupCommand, type SetupDirective, type SetupProgram } from './setup-program.js';

// One engine's sandbox, from the service's side: what is asked for it and what this machine
// gives (sandbox-support.ts), its cgroup (made before the engine starts, removed once it is
// gone), the command that sets it up, and the layers it reports once the engine has said what
// it sees from inside (sandbox-facts.ts). A layer is reported in effect only when it was set up
// *and* the engine confirmed it; every other one says why not (docs/isolation.md, *The sandbox*).

/** What the host's options ask of an engine's sandbox. */
export interface SandboxRequest {
  /** `permissions.fsWrite`, resolved: the engine's only writable directories (`/` lifts the view). */
  readonly fsWrite: readonly string[];
  /** `permissions.network`: false gives the engine a network namespace of its own. */
  readonly network: boolean;
  /** `limits.engineMemoryMb` and `limits.enginePids`: its cgroup's bounds. */
  readonly memoryMb: number;
  readonly pids: number;
}

/** The layers as `host.isolation()` reports them. */
export type SandboxLayers = Required<Omit<SandboxLayerFields, 'missing'>> & Pick<SandboxLayerFields, 'missing'>;

/** A bench aid, not an option: `off` starts engines as before the sandbox, and every layer says so. */
export const SANDBOX_OFF_VARIABLE = 'PLURNK_EXECS_ENGINE_SANDBOX';

/**
 * The writable mounts of the /dev the setup builds: its own shared-memory tmpfs and pty
 * instance, and the device nodes bound from the machine's (a read-only bind of /dev/null refuses
 * `> /dev/null`, and a device's content is no file the view could hold).
 */
const OWN_DEV_MOUNTS: ReadonlySet<string> = new Set(
  ['shm', 'pts', 'null', 'zero', 'full', 'random', 'urandom', 'tty'].map((name) => `/dev/${name}`),
);

let layout: CgroupLayout | { missing: string } | undefined;
const serviceNetwork = netNamespaceId();

/** One engine's sandbox: build it just before the engine starts, release it once the engine is gone. */
export class EngineSandbox {
  readonly cgroup: EngineCgroup | null = null;
  /** The setup runs at all (Linux, not switched off): it joins the cgroup and closes inherited descriptors. */
  private readonly setup: boolean;
  private readonly dropPrivileges: boolean;
  /** The directories left writable in a locked view; null when the view stays open. */
  private readonly writable: string[] | null = null;
  private readonly ownNetwork: boolean;
  private readonly program: SetupProgram;
  private readonly gaps: SandboxGaps = {};
  /** The cgroup's OOM kills when last read: a later one is what an engine's death is judged by. */
  private oomKillsSeen = 0;

  /** `namespace`: the `unshare` prefix the engine starts under, or null when it gets no namespace. */
  constructor(
    private readonly request: SandboxRequest,
    namespace: readonly string[] | null,
  ) {
    const off = process.env[SANDBOX_OFF_VARIABLE] === 'off';
    const support = detectSandboxSupport(namespace);
    this.program = support.program;
    this.setup = process.platform === 'linux' && !off;
    const why = (own: string | null) => (off ? `${SANDBOX_OFF_VARIABLE}=off in the service's environment` : own);
    this.dropPrivileges = this.setup && support.capabilities === null;
    if (!this.dropPrivileges) this.gaps.capabilities = why(support.capabilities) ?? '';
    const dirs = writableDirs(request.fsWrite);
    if (!this.setup || support.fsView !== null) this.gaps.fsView = why(support.fsView) ?? '';
    else if (typeof dirs === 'string') this.gaps.fsView = dirs;
    else this.writable = dirs;
    this.ownNetwork = this.setup && !request.network && support.network === null;
    if (!this.ownNetwork)
      this.gaps.network = request.network
        ? 'permissions.network is true (the default): the engine shares the service’s network, its loopback ports included'
        : (why(support.network) ?? '');
    if (this.setup) this.cgroup = this.makeCgroup();
    else this.gaps.cgroup = why('') || 'not Linux';
  }

  /** `next` (the init and the engine) under the setup and `setpriv`, and what `unshare` must add for it. */
  command(next: readonly string[]): { unshare: string[]; command: string[] } {
    if (!this.setup) return { unshare: [], command: [...next] };
    const directives: SetupDirective[] = [
      ...(this.cgroup?.procsFiles ?? []).map((file) => `cgroup:${file}` as const),
      ...(this.writable === null ? [] : ['lock' as const, ...this.writable.map((dir) => `rw:${dir}` as const)]),
      ...(this.ownNetwork ? ['lo' as const] : []),
    ];
    return {
      unshare: this.ownNetwork ? ['--net'] : [],
      command: setupCommand(this.program, directives, [...(this.dropPrivileges ? DROP_PRIVILEGES : []), ...next]),
    };
  }

  /** The layers in effect, judged from what the engine saw (`facts`, its hello; undefined before it booted). */
  layers(facts: SandboxFacts | undefined): SandboxLayers {
    const missing: SandboxGaps = { ...this.gaps };
    const unseen = 'the engine has not confirmed it (it has not booted)';
    const held = (layer: keyof SandboxGaps, planned: boolean, seen: boolean | undefined, otherwise: string) => {
      if (!planned) return false;
      if (seen !== true) missing[layer] = facts === undefined ? unseen : otherwise;
      return seen === true;
    };
    const capabilities = held(
      'capabilities',
      this.dropPrivileges,
      facts?.noPrivileges,
      'the engine still saw a capability, or no no_new_privs',
    );
    const foreign = facts?.writableMounts.find((at) => !this.mayWrite(at));
    const fsView = held(
      'fsView',
      this.writable !== null,
      facts === undefined ? undefined : foreign === undefined && facts.writableMounts.length < MAX_LISTED,
      `the engine saw ${foreign ?? 'too many mounts'} writable`,
    );
    const network = held(
      'network',
      this.ownNetwork,
      facts === undefined ? undefined : facts.netNamespace !== null && facts.netNamespace !== serviceNetwork,
      'the engine saw the service’s network namespace',
    );
    const cgroup = this.cgroup;
    const joined = facts?.cgroups.filter((path) => cgroup !== null && path.endsWith(`/${cgroup.name}`)).length;
    const bounds = held(
      'cgroup',
      cgroup !== null,
      joined === undefined ? undefined : joined >= (cgroup?.hierarchies ?? 1),
      'the engine is not in its cgroup',
    )
      ? cgroup!.bounds()
      : null;
    return {
      capabilities: capabilities ? 'none' : 'inherited',
      fsView: fsView ? 'read-only' : 'open',
      cgroup: bounds === null ? null : { memoryBytes: bounds.memoryBytes, pids: bounds.pids },
      network: network ? 'own' : 'shared',
      ...(Object.keys(missing).length === 0 ? {} : { missing }),
    };
  }

  /**
   * What its cgroup refused so far; undefined without one. Each run reads it as it ends, and as it
   * begins unless a reading began within `maxAgeMs` (engine-cgroup.ts).
   */
  refusals(maxAgeMs?: number): CgroupRefusals | undefined {
    const refusals = this.cgroup?.refusals(maxAgeMs);
    if (refusals !== undefined) this.oomKillsSeen = refusals.oomKills;
    return refusals;
  }

  /**
   * Why the engine died, when its cgroup's OOM killer ran since {@link refusals} was last read
   * (the run in flight began, or the last one ended): read before the cgroup is removed. Else undefined.
   */
  outOfMemory(): string | undefined {
    if ((this.cgroup?.refusals().oomKills ?? 0) <= this.oomKillsSeen) return undefined;
    return `the kernel's OOM killer ended it at its cgroup's memory bound (limits.engineMemoryMb ${this.request.memoryMb})`;
  }

  /** Removes what the sandbox left outside the engine (its cgroup) once the engine is gone. */
  release(): Promise<void> {
    return this.cgroup?.remove() ?? Promise.resolve();
  }

  private makeCgroup(): EngineCgroup | null {
    layout ??= findCgroupLayout();
    if ('missing' in layout) {
      this.gaps.cgroup = layout.missing;
      return null;
    }
    try {
      return new EngineCgroup(layout, { memoryBytes: this.request.memoryMb * 1024 * 1024, pids: this.request.pids });
    } catch (error) {
      this.gaps.cgroup = `no writable cgroup: ${(error as Error).message}`;
      return null;
    }
  }

  /** A mount the engine may write: its own /proc, /dev/shm and /dev/pts, and what lies in a writable directory. */
  private mayWrite(at: string): boolean {
    return isUnder(at, '/proc') || OWN_DEV_MOUNTS.has(at) || (this.writable ?? []).some((dir) => isUnder(at, dir));
  }
}

/**
 * The directories of `fsWrite` as the setup binds them: real paths (a missing one is left out:
 * it stays read-only), each once, none inside another; or why the view stays open (`/`).
 */
export function writableDirs(fsWrite: readonly string[]): string[] | string {
  const real = fsWrite.flatMap((dir) => {
    try {
      return [realpathSync(dir)];
    } catch {
      return [];
    }
  });
  if (real.includes('/')) return 'permissions.fsWrite holds /: the engine may write wherever the service’s user may';
  const unique = [...new Set(real)].sort();
  return unique.filter((dir) => !unique.some((other) => other !== dir && isUnder(dir, other)));
}
