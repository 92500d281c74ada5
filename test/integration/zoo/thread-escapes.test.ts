import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createHost, type ExecOutcome, type Host } from '../../../src/host/index.js';
import { expectContained, watchHostErrors, zooDirs } from '../../helpers/zoo.js';
import { TIER, tierOptions } from '../../helpers/tier.js';
import { detectPidNamespace } from '../../../src/engine/engine-command.js';
import { engineOf, namespacePid } from '../../helpers/engine-pids.js';

const FORBIDDEN = '(§executor-forbidden)';

/**
 * The process the leaf of `packageName` shares its thread with, as the leaf sees it: this one
 * in the thread tier; its package's engine in the process tier, by its pid inside its PID namespace.
 */
async function leafHost(host: Host, packageName: string): Promise<{ pid: number; ppid: number }> {
  if (TIER === 'thread') return { pid: process.pid, ppid: process.ppid };
  const engine = await engineOf(host, packageName);
  // Inside a namespace the engine's parent is the namespace's init, pid 1; without one it is this process.
  if (detectPidNamespace() !== null) return { pid: namespacePid(engine)!, ppid: 1 };
  return { pid: engine, ppid: process.pid };
}

/** How the signal guard names a kill of `pid` that is not the run's own. */
function foreign(pid: number): string {
  return pid === 0
    ? 'process.kill(0): that is the host’s process group'
    : `process.kill(${pid}): process ${pid} is not one of this run’s`;
}

// What a thread shares with the host process and must not reach: the main thread (through the
// inspector or an internal binding), processes that are not its run's, other threads, and
// process-wide knobs. Each attempt is refused in the leaf (500 executor-threw, since every
// fixture lets the refusal escape run()) and recorded as the run's violation; the host, the
// other tags and the tag's next run carry on.
describe('the zoo: reaching out of the thread', () => {
  let host: Host;
  const hostErrors = watchHostErrors();
  beforeAll(async () => {
    host = await createHost({
      ...tierOptions(),
      packageDirs: zooDirs(
        'healthy',
        'reaches-main-thread',
        'signals-past-the-guard',
        'broadcasts',
        'turns-process-knobs',
      ),
      breaker: { crashes: 1000 },
      limits: { graceMs: 300 },
    });
  });
  afterEach(() => expect(hostErrors.errors).toEqual([]));
  afterAll(async () => {
    await host.close();
    hostErrors.dispose();
  });

  /** Runs `runtime` with `body` through every containment check and returns the refusal it recorded, of `kind`. */
  async function refused(runtime: string, body: string, kind: string): Promise<{ out: ExecOutcome; refusal: string }> {
    const out = await expectContained(host, {
      runtime,
      body,
      problem: 'exec/executor-threw',
      status: 500,
      kept: 'before the fault',
      next: { body: 'ok' },
    });
    expect(out.channels.out!.text).toBe('before the fault');
    expect(out.violations).toEqual([{ kind, detail: expect.any(String) }]);
    const refusal = out.violations[0]!.detail;
    expect(out.result.problem?.detail).toBe(`run() threw: PlurnkExecsError: ${refusal}`);
    expect(refusal.endsWith(FORBIDDEN)).toBe(true);
    return { out, refusal };
  }

  describe('B: the inspector and internal bindings', () => {
    it.each([
      ['session', 'new inspector.Session()'],
      ['require-session', 'new inspector.Session()'],
      ['promises-session', 'new inspector.Session()'],
      ['open', 'inspector.open()'],
      ['binding', 'process.binding("inspector")'],
      ['linked', 'process._linkedBinding("inspector")'],
    ])('refuses %s before it reaches the main thread', async (route, call) => {
      const { refusal } = await refused('reaches-main-thread', route, 'main-thread');
      expect(refusal).toBe(
        `${call}: a leaf may not reach the host's main thread or Node's internal bindings from its thread ${FORBIDDEN}`,
      );
      expect((globalThis as { zooReachedMainThread?: unknown }).zooReachedMainThread).toBeUndefined();
    });
  });

  describe('C: signals', () => {
    it.each([
      [
        '_kill',
        async () =>
          `process._kill(${(await leafHost(host, 'zoo-signals-past-the-guard')).pid}): that is the host process`,
      ],
      ['flip', async () => 'process.kill(4194311): process 4194311 is not one of this run’s'],
      ['ppid', async () => foreign((await leafHost(host, 'zoo-signals-past-the-guard')).ppid)],
    ])('refuses %s: only the run’s own processes may be signalled', async (route, expected) => {
      const start = await expected();
      const { refusal } = await refused('signals-past-the-guard', route, 'forbidden-signal');
      expect(refusal).toBe(
        `${start}; a leaf may signal only processes in groups its own run started, or that carry its run's marker ${FORBIDDEN}`,
      );
    });

    it('lets a leaf signal a child its run started', async () => {
      const out = await expectContained(host, {
        runtime: 'signals-past-the-guard',
        body: 'own',
        status: 200,
        next: { body: 'ok' },
      });
      expect(out.channels.out!.text).toBe('before the fault, own child ended by SIGTERM');
      expect(out.violations).toEqual([]);
    });
  });

  describe('L: BroadcastChannel', () => {
    it.each([
      ['send', 'the global'],
      ['listen', 'the node:worker_threads'],
    ])('refuses %s (%s class): no run reads another thread', async (body) => {
      const { refusal } = await refused('broadcasts', body, 'thread-ban');
      expect(refusal).toBe(
        `new BroadcastChannel("zoo"): a leaf may not talk to other threads — another tag's or another run's ${FORBIDDEN}`,
      );
    });
  });

  describe('O: process-wide knobs', () => {
    const KNOB = `a leaf may not turn a knob of the process it shares with the host ${FORBIDDEN}`;
    it.each([
      [
        'priority',
        async () =>
          `os.setPriority(${(await leafHost(host, 'zoo-turns-process-knobs')).pid}, …): that is the host process`,
      ],
      ['v8-flags', () => 'v8.setFlagsFromString("--no-trace-gc"): V8 flags are the whole process’s'],
      ['stdin', () => 'process.stdin: stdin is the host operator’s'],
      ['open-stdin', () => 'fs.openSync("/dev/stdin"): that path opens the host’s stdin, stdout or stderr again'],
      ['close-stdin', () => 'fs.closeSync(0): fds 0–2 are the host’s stdin, stdout and stderr'],
      ['report', () => 'process.report.getReport(): a report holds the host process’s environment and secrets'],
    ])('refuses %s', async (knob, expected: () => string | Promise<string>) => {
      const start = await expected();
      const { refusal } = await refused('turns-process-knobs', knob, 'process-knob');
      expect(refusal).toBe(`${start}; ${KNOB}`);
    });
  });
});
