import { randomUUID } from 'node:crypto';
import { existsSync, fstatSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { getPriority, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { detectPidNamespace } from '../../../src/engine/engine-command.js';
import { detectInit } from '../../../src/engine/namespace-init.js';
import { createHost, type ExecRequest, type Host } from '../../../src/host/index.js';
import { enginePids } from '../../helpers/engine-pids.js';
import { handshake } from '../../helpers/handshake.js';
import { survivorsAfter } from '../../helpers/survivors.js';
import { watchHostErrors, zooDirs } from '../../helpers/zoo.js';

const FIXTURES = fileURLToPath(new URL('../../../fixtures/engine', import.meta.url));
const COMMON = fileURLToPath(new URL('../../../src/leaves/common', import.meta.url));
const SECRET_NAME = 'PLURNK_ENGINE_TEST_SERVICE_SECRET';
const namespace = detectPidNamespace() !== null;
/**
 * A directory every user may write that is neither the temp directory nor under the host's cwd:
 * outside the default fsWrite. Not /dev/shm, which the engine's own /dev replaces.
 */
const OUTSIDE = '/var/tmp';
/** How the permission model words a refused write (Node ≥ 22 adds how to allow it). */
const ACCESS_DENIED = /^run\(\) threw: Error: Access to this API has been restricted/;
/** A real native addon from this repository's own dependencies (a Node-API prebuild). */
const ADDON = createRequire(import.meta.url).resolve('@napi-rs/nice-linux-x64-gnu');
const ADDONS_DISABLED = /^run\(\) threw: Error: Cannot load native addon because loading addons is disabled/;

// The process tier against a leaf that attacks the engine: after each attack the service
// lives, other tags answer, output written before the fault is kept, and nothing survives close().
describe('the process tier contains what a leaf does to its engine', () => {
  let host: Host;
  const hostErrors = watchHostErrors();
  const secret = randomUUID();
  const path = { PATH: process.env.PATH ?? '/usr/bin:/bin' };

  beforeAll(async () => {
    process.env[SECRET_NAME] = secret;
    host = await createHost({
      isolation: 'process',
      packageDirs: [...zooDirs('healthy'), join(FIXTURES, 'engine-faults'), COMMON],
      breaker: { crashes: 1000 },
      limits: { graceMs: 300 },
    });
  });
  afterEach(async () => {
    expect(hostErrors.errors).toEqual([]);
    // The service lives and another tag answers.
    expect(() => process.kill(process.pid, 0)).not.toThrow();
    const next = await host.exec({ runtime: 'healthy', body: 'ok' });
    expect({ result: next.result, text: next.channels.out?.text }).toEqual({ result: { status: 200 }, text: 'ok' });
  });
  afterAll(async () => {
    await host.close();
    delete process.env[SECRET_NAME];
    hostErrors.dispose();
  });

  it('says which containment is in effect, measured from inside the engine', () => {
    // The Perl init counts what it reaps; the sh init (where Perl is missing) cannot.
    const counted = namespace && detectInit() === 'perl';
    // The sandbox's layers are engine-sandbox.test.ts's: here, that each is reported, and why the network is shared.
    const { capabilities, fsView, cgroup, network, missing, ...rest } = host.isolation();
    expect(rest).toEqual({
      tier: 'process',
      pidNamespace: namespace,
      permissionModel: true,
      ...(counted ? { zombiesReaped: expect.any(Number) } : {}),
    });
    expect([capabilities, fsView, cgroup === undefined, network]).toEqual([
      expect.stringMatching(/^(none|inherited)$/),
      expect.stringMatching(/^(read-only|open)$/),
      false,
      'shared',
    ]);
    expect(missing?.network).toMatch(/^permissions\.network is true \(the default\)/);
  });

  it('settles a run whose engine was killed 500 engine-crashed, keeps what it wrote, and restarts the engine', async () => {
    const first = handshake<string>();
    const running = host.exec({
      runtime: 'sh',
      body: 'echo before the fault; sleep 30',
      sinks: { write: (_channel, chunk) => first.resolve(chunk) },
    });
    expect(await first.promise).toBe('before the fault\n');
    const [engine] = enginePids().engine;
    process.kill(engine!, 'SIGKILL');
    const out = await running;
    expect(out.result).toMatchObject({ status: 500, problem: { type: expect.stringMatching(/engine-crashed$/) } });
    expect(out.channels.stdout).toMatchObject({ text: 'before the fault\n', state: 'errored' });
    expect(out.containment?.forcedEnd).toEqual({ reason: 'engine-crashed', terminated: true });
    // The next run waits for the new engine, which re-probed its tags.
    expect((await host.exec({ runtime: 'engine-faults', body: 'whoami' })).result.status).toBe(200);
    expect(enginePids().engine).not.toContain(engine);
    expect(host.availability('sh')?.available).toBe(true);
  });

  it('treats a frame a leaf forged on the engine channel as a corrupt engine: 500 engine-crashed, output kept', async () => {
    // The interact sink lets the leaf know its write reached the service before it forges a frame.
    const out = await host.exec({
      runtime: 'engine-faults',
      body: 'forge-frame',
      sinks: { interact: async () => ({ status: 'cancelled' as const }) },
    });
    expect(out.result).toMatchObject({
      status: 500,
      problem: { detail: expect.stringMatching(/corrupt engine channel/) },
    });
    expect(out.channels.out?.text).toBe('before the fault');
  });

  it('survives a leaf whose child sends SIGKILL to the engine: 500 engine-crashed, then a new engine', async () => {
    const [engine] = enginePids().engine;
    // In a namespace too: the engine is its init's child, not the init, so the signal reaches it.
    const out = await host.exec({
      runtime: 'engine-faults',
      body: 'kill-engine',
      sinks: { interact: async () => ({ status: 'cancelled' as const }) },
    });
    expect(out.result).toMatchObject({ status: 500, problem: { type: expect.stringMatching(/engine-crashed$/) } });
    expect(out.channels.out?.text).toBe('before the fault');
    expect((await host.exec({ runtime: 'healthy', body: 'ok' })).result.status).toBe(200);
    expect(enginePids().engine).not.toContain(engine);
  });

  it.runIf(namespace)('lets no leaf kill the namespace’s init, the engine’s parent', async () => {
    const before = enginePids().all;
    const out = await host.exec({ runtime: 'engine-faults', body: 'kill-engine-parent' });
    expect(out.result.status).toBe(200);
    // The init is pid 1 of the namespace: a SIGKILL from inside it is dropped.
    expect(out.channels.out?.text).toBe('parent=1');
    expect(enginePids().all).toEqual(before);
  });

  it.runIf(namespace)(
    'contains sh `kill -9 -1` to the namespace: the engine dies, the service lives, a new engine answers',
    async () => {
      const marker = randomUUID();
      const old = enginePids().all;
      const gate = join(tmpdir(), `plurnk-kill-all-${marker}`);
      // The guard: pid 1 of this /proc must be the engine's init, which is true only inside its
      // namespace. The shell signals once its `armed` reached this test (the gate file).
      const body = [
        'grep -q plurnk-execs-init /proc/1/cmdline || { echo refused; exit 3; }',
        'sleep 300 & echo armed',
        'while [ ! -e "$GATE" ]; do sleep 0.02; done',
        'kill -9 -1; sleep 5; echo unreachable',
      ].join('\n');
      const out = await host
        .exec({
          runtime: 'sh',
          body,
          env: { ...path, ZOO_RUN: marker, GATE: gate },
          sinks: { write: () => writeFileSync(gate, '') },
        })
        .finally(() => rmSync(gate, { force: true }));
      // kill(-1) signals every process of the namespace but its init and the caller: the engine
      // dies, its init exits with it and the kernel ends the rest, the shell included.
      // The init reports how the engine ended: its status is 128 + the signal.
      expect(out.result).toMatchObject({
        status: 500,
        problem: { type: expect.stringMatching(/engine-crashed$/), detail: expect.stringMatching(/killed by SIGKILL/) },
      });
      expect(out.containment?.forcedEnd).toEqual({ reason: 'engine-crashed', terminated: true });
      expect(out.channels.stdout?.text).toBe('armed\n');
      expect(await survivorsAfter([{ marker }])).toEqual([]);
      // The next EXEC waits for the engine restarted after the usual backoff, in a new namespace.
      const next = await host.exec({ runtime: 'sh', body: 'echo again', env: path });
      expect({ status: next.result.status, text: next.channels.stdout?.text }).toEqual({
        status: 200,
        text: 'again\n',
      });
      expect(enginePids().all.filter((pid) => old.includes(pid))).toEqual([]);
    },
  );

  it('shows a leaf none of the service environment, in its own or the engine /proc environ', async () => {
    const body = `tr '\\0' '\\n' < /proc/self/environ; tr '\\0' '\\n' < /proc/1/environ; test -e /proc/${process.pid}/environ && echo service-visible || true`;
    const out = await host.exec({ runtime: 'sh', body });
    expect(out.result.status).toBe(200);
    const seen = out.channels.stdout!.text;
    expect(seen).toMatch(/^PATH=/m);
    expect(seen).not.toContain(secret);
    expect(seen).not.toContain(SECRET_NAME);
    if (namespace) expect(seen).not.toContain('service-visible');
  });

  it('keeps writes to fds 0-2 inside the engine, and the thread guard refuses closing them', async () => {
    const out = await host.exec({ runtime: 'engine-faults', body: 'std-fds' });
    expect(out.result.status).toBe(200);
    expect(out.channels.out?.text).toBe('0 refused, 1 refused, 2 refused');
    expect(() => [0, 1, 2].map((fd) => fstatSync(fd))).not.toThrow();
    // An engine without fds 0-2 may die later (Node 20 was seen to crash with SIGSEGV): a run in
    // flight then settles engine-crashed and the next engine serves the one after it.
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const next = await host.exec({ runtime: 'healthy', body: 'ok' });
      if (next.result.status === 200) break;
      expect(next.result.problem?.type).toMatch(/engine-crashed$/);
    }
  });

  it.each([
    ['renice-engine', 'process-knob', /^os\.setPriority\(\d+, …\): that is the host process; /],
    // Inside a namespace the parent reads as pid 0, which names the engine itself.
    [
      'renice-parent',
      'process-knob',
      /^os\.setPriority\(\d+, …\): (that is the host process|not one of the run’s processes); /,
    ],
    [
      'v8-flags',
      'process-knob',
      /^v8\.setFlagsFromString\("--max-old-space-size=8"\): V8 flags are the whole process’s; /,
    ],
    ['process-binding', 'main-thread', /^process\.binding\("fs"\): a leaf may not reach .*internal bindings/],
  ])(
    'refuses %s in the leaf’s thread: a named 500, output kept, the engine and the service untouched',
    async (attack, kind, refusal) => {
      const [engine] = enginePids().engine;
      const priorities = { service: getPriority(process.pid), engine: getPriority(engine!) };
      const out = await host.exec({ runtime: 'engine-faults', body: attack });
      expect(out.result).toMatchObject({ status: 500, problem: { type: expect.stringMatching(/executor-threw$/) } });
      expect(out.channels.out?.text).toBe('before the fault');
      expect(out.violations).toEqual([{ kind, detail: expect.stringMatching(refusal) }]);
      // The same engine serves on, at the priority both processes had.
      expect(enginePids().engine).toEqual([engine]);
      expect({ service: getPriority(process.pid), engine: getPriority(engine!) }).toEqual(priorities);
    },
  );

  it.runIf(namespace)('hides the service from a child that renices it, inside a verified PID namespace', async () => {
    const before = getPriority(process.pid);
    // The thread guard never sees a child's syscalls: only the namespace keeps the service's pid from it.
    const out = await host.exec({ runtime: 'engine-faults', body: `renice-service ${process.pid}` });
    expect(out.result.status).toBe(200);
    expect(out.channels.out?.text).toMatch(/^renice failed: .*No such process/);
    expect(getPriority(process.pid)).toBe(before);
  });

  it('refuses a native addon through the permission model, as a named 500 that keeps the output', async () => {
    const refused = await host.exec({ runtime: 'engine-faults', body: `dlopen ${ADDON}` });
    expect(refused.result).toMatchObject({
      status: 500,
      problem: { type: expect.stringMatching(/executor-threw$/), detail: expect.stringMatching(ADDONS_DISABLED) },
    });
    expect(refused.channels.out?.text).toBe('before the fault');
  });

  it('refuses a Node write outside the allowed directories through the permission model, as a named 500', async () => {
    const outside = join(OUTSIDE, `plurnk-engine-write-${randomUUID()}`);
    const refused = await host.exec({ runtime: 'engine-faults', body: `write ${outside}` });
    expect(refused.result).toMatchObject({
      status: 500,
      problem: { type: expect.stringMatching(/executor-threw$/), detail: expect.stringMatching(ACCESS_DENIED) },
    });
    expect(refused.channels.out?.text).toBe('before the fault');
    expect(existsSync(outside)).toBe(false);
    // The default fsWrite holds the temp directory (and the host's cwd): a write there goes through.
    const inside = join(tmpdir(), `plurnk-engine-write-${randomUUID()}`);
    try {
      const written = await host.exec({ runtime: 'engine-faults', body: `write ${inside}` });
      expect(written.result.status).toBe(200);
      expect(readFileSync(inside, 'utf8')).toBe('written by a leaf');
    } finally {
      rmSync(inside, { force: true });
    }
  });

  it.runIf(namespace)('kills a setsid daemon nobody reported by its run’s end', async () => {
    const marker = randomUUID();
    const request: ExecRequest = {
      runtime: 'sh',
      body: "setsid sh -c 'sleep 300' </dev/null >/dev/null 2>&1 & echo started",
      env: { ...path, ZOO_RUN: marker },
    };
    const out = await host.exec(request);
    expect(out.channels.stdout?.text).toBe('started\n');
    expect(await survivorsAfter([{ marker }])).toEqual([]);
  });
});

describe('closing a process-tier host', () => {
  it('ends the engine, its namespace and every process a leaf left behind', async () => {
    const host = await createHost({ isolation: 'process', packageDirs: [COMMON] });
    const marker = randomUUID();
    const started = handshake();
    const running = host.exec({
      runtime: 'sh',
      body: "setsid sh -c 'sleep 300' </dev/null >/dev/null 2>&1 & echo started; sleep 300",
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ZOO_RUN: marker },
      sinks: { write: () => started.resolve() },
    });
    await started.promise;
    expect(enginePids().all.length).toBeGreaterThan(0);
    await host.close();
    expect((await running).result.status).toBe(499);
    expect(enginePids().all).toEqual([]);
    expect(await survivorsAfter([{ marker }])).toEqual([]);
  });
});

describe('permissions.addons in the process tier', () => {
  it('lets a leaf load a native addon only when the service allows it', async () => {
    const host = await createHost({
      isolation: 'process',
      packageDirs: [join(FIXTURES, 'engine-faults')],
      permissions: { addons: true },
    });
    try {
      const loaded = await host.exec({ runtime: 'engine-faults', body: `dlopen ${ADDON}` });
      expect({ result: loaded.result, text: loaded.channels.out?.text }).toEqual({
        result: { status: 200 },
        text: 'before the fault loaded object',
      });
    } finally {
      await host.close();
    }
  });
});

describe('permissions.fsWrite in the process tier', () => {
  it('lets a leaf write under a configured directory and refuses it everywhere else, the temp directory included', async () => {
    const allowed = mkdtempSync(join(OUTSIDE, 'plurnk-fswrite-'));
    const host = await createHost({
      isolation: 'process',
      packageDirs: [...zooDirs('healthy'), join(FIXTURES, 'engine-faults')],
      permissions: { fsWrite: [allowed] },
    });
    const elsewhere = join(tmpdir(), `plurnk-fswrite-${randomUUID()}`);
    try {
      const written = await host.exec({ runtime: 'engine-faults', body: `write ${join(allowed, 'inside.txt')}` });
      expect(written.result.status).toBe(200);
      expect(readFileSync(join(allowed, 'inside.txt'), 'utf8')).toBe('written by a leaf');
      const refused = await host.exec({ runtime: 'engine-faults', body: `write ${elsewhere}` });
      expect(refused.result.problem?.detail).toMatch(ACCESS_DENIED);
      expect(existsSync(elsewhere)).toBe(false);
      expect((await host.exec({ runtime: 'healthy', body: 'ok' })).result.status).toBe(200);
    } finally {
      await host.close();
      rmSync(allowed, { recursive: true, force: true });
      rmSync(elsewhere, { force: true });
    }
    expect(enginePids().all).toEqual([]);
  });
});

describe('the crash breaker in the process tier', () => {
  it('charges an engine death to the tag only when its run was the one in flight', async () => {
    const host = await createHost({
      isolation: 'process',
      packageDirs: [...zooDirs('healthy', 'host/exec-waits-for-abort'), join(FIXTURES, 'engine-faults')],
      breaker: { crashes: 1, cooldownMs: 600_000 },
    });
    try {
      const killDuring = async (runtimes: string[]) => {
        const started = runtimes.map(() => handshake());
        const runs = runtimes.map((runtime, i) =>
          host.exec({
            runtime,
            body: 'wait',
            sinks: { write: () => started[i]!.resolve() },
          }),
        );
        await Promise.all(started.map((s) => s.promise));
        process.kill(enginePids().engine[0]!, 'SIGKILL');
        return Promise.all(runs);
      };
      // Two runs in flight: nobody can tell whose leaf it was, so no tag is charged.
      const both = await killDuring(['engine-faults', 'wait-abort']);
      expect(both.map((out) => out.containment?.forcedEnd?.reason)).toEqual(['engine-crashed', 'engine-crashed']);
      expect(host.availability('engine-faults')?.degraded).toBeUndefined();
      expect(host.availability('wait-abort')?.degraded).toBeUndefined();
      // One run in flight: its tag is charged, and degraded past the breaker's one crash.
      await killDuring(['engine-faults']);
      expect(host.availability('engine-faults')?.degraded?.reason).toMatch(/the engine process died/);
      expect((await host.exec({ runtime: 'engine-faults', body: 'whoami' })).result.status).toBe(503);
      expect((await host.exec({ runtime: 'healthy', body: 'ok' })).result.status).toBe(200);
    } finally {
      await host.close();
    }
  });
});
