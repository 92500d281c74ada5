import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { constants } from 'node:os';
import type { Duplex, Readable } from 'node:stream';
import { describeIssue } from '../contracts/result.js';
import { CallLedger } from './call-ledger.js';
import type { EngineDeathCause } from '../model/fault-kinds.js';
import type { EngineCommand } from './engine-command.js';
import { ENGINE_OUTPUT_KEPT_BYTES } from './engine-limits.js';
import { EngineMessageSchema, type EngineMessage, type ServiceMessage } from './engine-protocol.js';
import { keyedParser } from '../contracts/keyed-variant.js';
import { readInitReaped } from './namespace-init.js';
import type { SandboxFacts } from './sandbox/sandbox-facts.js';
import { watchEngine, type EngineWatchdog } from './engine-watchdog.js';
import { openFrameChannel, type FrameChannel } from './frame-channel.js';

/** Every frame an engine sends, checked against the one kind its `t` names (keyed-variant.ts). */
const parseEngineMessage = keyedParser(EngineMessageSchema);

/** How an engine ended, as the runs in flight settle: it died, or its main thread stopped answering and it was killed. */
export type EngineEnd = 'engine-crashed' | 'engine-unresponsive';

/** What the engine says about itself in its first frame, before any leaf is loaded. */
export interface EngineHello {
  readonly pid: number;
  /** It runs under its init in a PID namespace other than the service's (namespace-init.ts). */
  readonly pidNamespace: boolean;
  readonly permissionModel: boolean;
  /** What it sees of its sandbox, before any leaf loads (sandbox/sandbox-facts.ts). */
  readonly sandbox: SandboxFacts;
}

/** The engine's own stdout and stderr as the service kept them: the first bytes, and a count. */
export interface EngineOutput {
  text: string;
  bytes: number;
}

/**
 * One engine process as the service sees it: started with a built environment, stdin
 * /dev/null, stdout and stderr read into a bounded buffer, and one framed pipe. Every frame is
 * validated before `onMessage` sees it; a corrupt one kills the engine. Once `watch()`ed, an
 * engine that sends no frame (its heartbeats included) for too long is killed as unresponsive.
 * `onDeath` is called exactly once, whatever ended it (exit, a corrupt frame, a failed spawn,
 * silence, `kill()`).
 */
export class EngineProcess {
  readonly output: EngineOutput = { text: '', bytes: 0 };
  readonly exited: Promise<void>;
  private readonly child: ChildProcess;
  private readonly channel: FrameChannel;
  private dead = false;
  private watchdog: EngineWatchdog | undefined;
  /** What the engine owes for the calls it was sent (call-ledger.ts): from `watch()` on, when calls may be sent. */
  private ledger: CallLedger | undefined;

  constructor(
    readonly command: EngineCommand,
    env: Record<string, string>,
    maxFrameBytes: number,
    private readonly onMessage: (message: EngineMessage) => void,
    private readonly onDeath: (why: string, end: EngineEnd, cause?: EngineDeathCause) => void,
  ) {
    // detached: its own process group, so a terminal's Ctrl-C reaches the service alone.
    this.child = spawn(command.file, command.args, {
      env,
      stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
      detached: true,
    });
    let exited!: () => void;
    this.exited = new Promise((resolve) => (exited = resolve));
    this.child.on('error', (error) => {
      this.die(`the engine could not start: ${error.message}`);
      void command.sandbox?.release();
    });
    this.child.on('exit', (code, signal) => {
      // A SIGKILL while its cgroup's OOM killer ran: read before the cgroup is removed.
      const killed = signal === 'SIGKILL' || (command.init !== null && code === 128 + constants.signals.SIGKILL);
      const outOfMemory = killed ? command.sandbox?.outOfMemory() : undefined;
      if (outOfMemory === undefined) this.die(describeExit(code, signal, command.init !== null));
      else this.die(`the engine process was killed: ${outOfMemory}`, 'engine-crashed', 'engine-out-of-memory');
      // Its cgroup goes with it: `exited` means both are gone.
      void (command.sandbox?.release() ?? Promise.resolve()).catch(() => {}).then(exited);
    });
    for (const stream of [this.child.stdout, this.child.stderr]) this.keep(stream);
    this.channel = openFrameChannel(
      this.child.stdio[3] as Duplex,
      maxFrameBytes,
      (frame) => this.receive(frame),
      (why) => this.fail(`the engine sent ${why}`),
    );
  }

  /** The engine's pid as the service sees it (unshare's when it runs in a namespace). */
  get pid(): number | undefined {
    return this.child.pid;
  }

  /**
   * How many processes its namespace's init has reaped since it started, as the init's title
   * says (namespace-init.ts); undefined without a namespace, with an init that does not count,
   * or once the engine is dead.
   */
  zombiesReaped(): number | undefined {
    const pid = this.child.pid;
    if (this.dead || this.command.init === null || pid === undefined) return undefined;
    const [init] = childrenOf(pid);
    return init === undefined ? undefined : readInitReaped(init);
  }

  get alive(): boolean {
    return !this.dead;
  }

  send(message: ServiceMessage): boolean {
    return !this.dead && this.channel.send(message);
  }

  /**
   * Sends an exec or effect frame the engine must acknowledge within `limits.unresponsiveMs` and,
   * with `deadlineMs`, answer within it (call-ledger.ts); `what` names the call in the reason the
   * engine is killed for when it does not. False when the engine is gone.
   */
  sendCall(message: Extract<ServiceMessage, { t: 'exec' | 'effect' }>, what: string, deadlineMs?: number): boolean {
    if (!this.send(message)) return false;
    this.ledger?.sent(message.id, what, this.watchdog?.freeMs() ?? 0, deadlineMs);
    return true;
  }

  /** Call `id` was answered (its outcome, its effect, or its error): its deadline is kept no longer. */
  answered(id: number): void {
    this.ledger?.answered(id);
  }

  /** Ends the engine at once: SIGKILL (`--kill-child` then takes its namespace down). */
  kill(why = 'the host killed the engine'): void {
    this.die(why);
  }

  /**
   * From now on, kills the engine as `engine-unresponsive` once no frame came from it for
   * `silentMs`: its main thread sends a heartbeat every `everyMs` (from the boot frame on).
   */
  watch(everyMs: number, silentMs: number): void {
    if (this.dead || this.watchdog !== undefined) return;
    const ledger = (this.ledger = new CallLedger(silentMs));
    this.watchdog = watchEngine(
      everyMs,
      silentMs,
      (silent) =>
        this.die(
          `the engine's main thread stopped answering: no frame for ${silent}ms (limits.unresponsiveMs is ${silentMs}ms)`,
          'engine-unresponsive',
        ),
      (now) => {
        const overdue = ledger.overdue(now);
        if (overdue !== undefined) this.die(`the engine owes an answer: ${overdue}`, 'engine-unresponsive');
      },
    );
  }

  /** Kills the engine for a frame it should never have sent. */
  fail(why: string): void {
    this.die(`corrupt engine channel: ${why}`);
  }

  private receive(frame: unknown): void {
    if (this.dead) return;
    const parsed = parseEngineMessage(frame);
    if (!parsed.success)
      return this.fail(`a malformed frame (${parsed.issues.slice(0, 3).map(describeIssue).join('; ')})`);
    this.watchdog?.beat();
    const message = parsed.output;
    if (message.t === 'heartbeat') {
      if (message.acks !== undefined) {
        const wrong =
          this.ledger === undefined
            ? 'an acknowledgement before it was sent any call'
            : this.ledger.acked(message.acks);
        if (wrong !== undefined) return this.fail(wrong);
      }
      // A heartbeat that carries a state goes on to the engine's lane, which holds it to its tags.
      if (message.state === undefined) return;
    }
    this.onMessage(message);
  }

  /**
   * SIGKILLs the engine. Under `unshare` its child, the namespace's init, goes first: the
   * kernel then kills every process in the namespace, the engine included, and the init's exit
   * waits until all of them are gone; unshare reaps it, so its exit — `exited` — then means the
   * engine is gone. Killing unshare first left the engine to die of `--kill-child` a moment after
   * close() had resolved (an engine stuck exiting behind a thread blocked in the kernel was still
   * there). Unshare is killed too if it outlives its child by {@link UNSHARE_EXIT_MS}.
   */
  private killEngine(): void {
    const pid = this.child.pid;
    const engines = this.command.pidNamespace && pid !== undefined ? childrenOf(pid) : [];
    for (const engine of engines) signal(engine);
    // ChildProcess.kill signals nothing once the child was reaped, so a reused pid is never hit.
    const killChild = () => {
      try {
        this.child.kill('SIGKILL');
      } catch {
        // Already gone.
      }
    };
    if (engines.length === 0) return killChild();
    const late = setTimeout(killChild, UNSHARE_EXIT_MS);
    this.child.once('exit', () => clearTimeout(late));
  }

  private die(why: string, end: EngineEnd = 'engine-crashed', cause?: EngineDeathCause): void {
    if (this.dead) return;
    this.dead = true;
    this.watchdog?.stop();
    this.killEngine();
    this.channel.close();
    try {
      this.onDeath(why, end, cause);
    } catch {
      // The host's death handler must not reach the process's last-resort handler.
    }
  }

  private keep(stream: Readable | null): void {
    stream?.on('data', (chunk: Buffer) => {
      this.output.bytes += chunk.length;
      const room = ENGINE_OUTPUT_KEPT_BYTES - this.output.text.length;
      if (room > 0) this.output.text += chunk.toString('utf8', 0, room);
    });
    stream?.on('error', () => {});
  }
}

/**
 * How the engine ended, from how `unshare` did: under an init, unshare exits with the init's
 * code, which is the engine's, or 128 + the signal that killed it (namespace-init.ts).
 */
function describeExit(code: number | null, signal: NodeJS.Signals | null, underInit: boolean): string {
  if (signal !== null) return `the engine process was killed by ${signal}`;
  const killer = underInit && code !== null && code > 128 ? signalName(code - 128) : undefined;
  return killer === undefined
    ? `the engine process exited with code ${code}`
    : `the engine process was killed by ${killer} (its init exited with code ${code})`;
}

/** The name of signal number `number` here, or undefined for none. */
function signalName(number: number): string | undefined {
  return Object.entries(constants.signals).find(([, value]) => value === number)?.[0];
}

/** How long unshare may outlive its killed child before it is killed too (it exits once it reaped it). */
const UNSHARE_EXIT_MS = 1000;

/** The children of `pid` (Linux: `/proc/<pid>/task/<pid>/children`), or none when that cannot be read. */
function childrenOf(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
      .split(/\s+/)
      .filter((field) => field !== '')
      .map(Number);
  } catch {
    return [];
  }
}

/** SIGKILL, for a process that may be gone already. */
function signal(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}
