import { spawnSync } from 'node:child_process';
import { detectInit } from '../namespace-init.js';
import { mountSyscall, setupCommand, type SetupDirective, type SetupProgram } from './setup-program.js';

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
  if (detected !== undefined) return detected;
  const program: SetupProgram = detectInit() === 'perl' && mountSyscall() !== undefined ? 'perl' : 'sh';
  if (prefix === null) {
    const none =
      process.platform === 'linux'
        ? 'no namespace can be made here (util-linux unshare is missing, or user namespaces are disabled)'
        : 'not Linux';
    return (detected = { program, capabilities: none, fsView: none, network: none });
  }
  const tryLayer = (unshare: string[], directives: SetupDirective[], engine: readonly string[]) => {
    const ran = spawnSync(
      'unshare',
      [...prefix, ...unshare, ...setupCommand(program, ['strict', ...directives], [...engine, 'true'])],
      { encoding: 'utf8', stdio: ['ignore', 'ignore', 'pipe'], timeout: 10_000 },
    );
    return ran.status === 0 ? null : firstLine(ran.stderr || ran.error?.message || `exit ${ran.status}`);
  };
  if (tryLayer(['--net'], ['lock', 'lo'], DROP_PRIVILEGES) === null)
    return (detected = { program, capabilities: null, fsView: null, network: null });
  const capabilities = tryLayer([], [], DROP_PRIVILEGES);
  const fsView = tryLayer([], ['lock'], []);
  const network = tryLayer(['--net'], ['lo'], []);
  return (detected = {
    program,
    capabilities: capabilities && `setpriv could not drop them here: ${capabilities}`,
    fsView: fsView && `the mount namespace could not be locked here: ${fsView}`,
    network: network && `no network namespace here: ${network}`,
  });
}

function firstLine(text: string): string {
  return text.trim().split('\n')[0]!.slice(0, 200);
}
