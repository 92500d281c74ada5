import { runProbe, runProbeSync, type Probe, type ProbeRun } from '../machine-probe.js';
import { detectInit, detectInitAhead } from '../namespace-init.js';
import {
  detectSetupShellAhead,
  mountSyscall,
  setupCommand,
  type SetupDirective,
  type SetupProgram,
} from './setup-program.js';

// Which sandbox layers this machine gives an engine, tried once per service process the way
// the engine will get them: the namespaces' prefix (`unshare …`), the setup program with every
// directive made strict, and `setpriv` dropping every privilege, with `true` as the engine. When
// the whole does not run, each layer is tried alone, so one the kernel refuses (no network
// namespaces, say) costs only itself, and the reason is kept for `host.isolation()`.

/**
 * `setpriv` arguments that leave a process, and everything it starts, without any privilege:
 * no_new_privs (no setuid or file capability can grant one), every capability set emptied
 * (bounding, inheritable, ambient; permitted and effective follow on exec), and root's special
 * treatment locked off — uid 0 gains nothing on exec, nor on a change of uid (securebits). As
 * verified here (DESIGN.md, *Engines and the sandbox*): uid 0 keeps `CapEff 0`, `umount /proc`
 * fails, `kill -0 1` and `node` work.
 */
export const DROP_PRIVILEGES = [
  'setpriv',
  '--no-new-privs',
  '--bounding-set=-all',
  '--inh-caps=-all',
  '--ambient-caps=-all',
  '--securebits=+noroot,+noroot_locked,+no_setuid_fixup,+no_setuid_fixup_locked',
] as const;

/** Per layer, null when this machine gives it, else why not. */
export interface SandboxSupport {
  /** Which program runs the setup (Perl where it runs and mount(2)'s number is known, else `sh`). */
  readonly program: SetupProgram;
  readonly capabilities: string | null;
  readonly fsView: string | null;
  readonly network: string | null;
}

let detected: SandboxSupport | undefined;

/**
 * The layers an engine started under the namespace `prefix` (engine-command.ts) can have here,
 * tried once per process; every layer is missing without a namespace (`prefix` null).
 */
export function detectSandboxSupport(prefix: readonly string[] | null): SandboxSupport {
  detected ??= runProbeSync(supportProbe(prefix, setupProgram(detectInit())));
  return detected;
}

/** {@link detectSandboxSupport} without blocking, its independent layers tried at once (engine-command.ts). */
export async function detectSandboxSupportAhead(prefix: readonly string[] | null): Promise<void> {
  if (detected !== undefined) return;
  const program = setupProgram(await detectInitAhead());
  // The `sh` setup's shell is asked for only when a setup command is built: under a namespace.
  if (program === 'sh' && prefix !== null) await detectSetupShellAhead();
  const support = await runProbe(supportProbe(prefix, program));
  detected ??= support;
}

/** Perl runs the setup where it runs the init and mount(2)'s number is known; else `sh`. */
function setupProgram(init: 'perl' | 'sh'): SetupProgram {
  return init === 'perl' && mountSyscall() !== undefined ? 'perl' : 'sh';
}

function* supportProbe(prefix: readonly string[] | null, program: SetupProgram): Probe<SandboxSupport> {
  if (prefix === null) {
    const none =
      process.platform === 'linux'
        ? 'no namespace can be made here (util-linux unshare is missing, or user namespaces are disabled)'
        : 'not Linux';
    return { program, capabilities: none, fsView: none, network: none };
  }
  const layer = (unshare: string[], directives: SetupDirective[], engine: readonly string[]): ProbeRun => ({
    file: 'unshare',
    args: [...prefix, ...unshare, ...setupCommand(program, ['strict', ...directives], [...engine, 'true'])],
  });
  const [whole] = yield [layer(['--net'], ['lock', 'lo'], DROP_PRIVILEGES)];
  if (whole!.status === 0) return { program, capabilities: null, fsView: null, network: null };
  const alone = yield [layer([], [], DROP_PRIVILEGES), layer([], ['lock'], []), layer(['--net'], ['lo'], [])];
  const [capabilities, fsView, network] = [0, 1, 2].map((at) => {
    const ran = alone[at];
    return ran?.status === 0 ? null : firstLine(ran?.stderr || `exit ${ran?.status}`);
  }) as [string | null, string | null, string | null];
  return {
    program,
    capabilities: capabilities && `setpriv could not drop them here: ${capabilities}`,
    fsView: fsView && `the mount namespace could not be locked here: ${fsView}`,
    network: network && `no network namespace here: ${network}`,
  };
}

function firstLine(text: string): string {
  return text.trim().split('\n')[0]!.slice(0, 200);
}
