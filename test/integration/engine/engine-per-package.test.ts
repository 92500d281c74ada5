import { randomUUID } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { detectPidNamespace } from '../../../src/engine/engine-command.js';
import type { ExecOutcome, Host } from '../../../src/host/index.js';
import { engineOf, enginePids } from '../../helpers/engine-pids.js';
import { handshake } from '../../helpers/handshake.js';
import { zooDirs, zooHost } from '../../helpers/zoo.js';

const COMMON = fileURLToPath(new URL('../../../src/leaves/common', import.meta.url));
const COMMON_PACKAGE = '@plurnk/plurnk-execs-common';
const FORGER = 'zoo-forges-engine-frames';
const TAG = 'forges-engine-frames';
const PATH = process.env.PATH ?? '/usr/bin:/bin';
const namespace = detectPidNamespace() !== null;
/** An interact sink: the forger's one interaction round-trips through it before each attack, so its output is already here. */
const interact = async () => ({ status: 'cancelled' as const });

/** A file whose existence tells a waiting run to go on; removed after the test. */
function gateFile(): { path: string; open(): void; remove(): void } {
  const path = join(tmpdir(), `plurnk-gate-${randomUUID()}`);
  return { path, open: () => writeFileSync(path, ''), remove: () => rmSync(path, { force: true }) };
}

/**
 * Runs the attacker's `command` with a gate file: its leaf writes once it is at work, then goes
 * on until the gate opens. `during` runs meanwhile; the gate opens after it, and both outcomes
 * are given.
 */
async function whileAttacking<T>(
  host: () => Host,
  command: string,
  during: () => Promise<T>,
): Promise<{ attacker: ExecOutcome; during: T }> {
  const gate = gateFile();
  const working = handshake();
  try {
    const attacker = host().exec({
      runtime: TAG,
      body: `${command} ${gate.path}`,
      sinks: { write: () => working.resolve(), interact },
    });
    await working.promise;
    const result = await during();
    gate.open();
    return { attacker: await attacker, during: result };
  } finally {
    gate.remove();
  }
}

// Issue 24's attacks, each by a leaf of one package on its engine's channel to the service (fd 3,
// which every thread of an engine can read and write), while a run of another package is in
// flight. Each package has an engine of its own: the other package's run settles with its own
// result, only the attacker's engine is killed (or sees nothing), and the service's view of the
// tags is what it was.
describe('an engine per package: a leaf reaches its own runs and nothing else', () => {
  const host = zooHost({
    isolation: 'process',
    packageDirs: [...zooDirs('forges-engine-frames'), COMMON],
    tags: ['sh', TAG],
    breaker: { crashes: 1000 },
    limits: { graceMs: 300 },
  });
  /** What the service says of its tags: no forged frame may change it. */
  const view = () => ({
    runtimes: host().availableRuntimes(),
    sh: host().availability('sh'),
    forger: host().availability(TAG)?.available,
  });

  /**
   * Runs `attack` of the forging leaf while an `sh` run of the other package (`lines`) is in
   * flight — it has written, and waits for a gate file the test opens once the attack settled —
   * and gives both outcomes.
   */
  async function attackDuringSh(
    lines: string[],
    attack: string,
  ): Promise<{ victim: ExecOutcome; forger: ExecOutcome }> {
    const gate = gateFile();
    const started = handshake();
    try {
      const victim = host().exec({
        runtime: 'sh',
        body: [lines[0]!, 'while [ ! -e "$GATE" ]; do sleep 0.02; done', ...lines.slice(1)].join('\n'),
        env: { PATH, GATE: gate.path },
        sinks: { write: () => started.resolve() },
      });
      await started.promise;
      const forger = await host().exec({ runtime: TAG, body: attack, sinks: { interact } });
      gate.open();
      return { victim: await victim, forger };
    } finally {
      gate.remove();
    }
  }

  /** The engines before an attack, and a check after it that only the attacker's was replaced (`replaced`) or none. */
  async function engines() {
    const before = { common: await engineOf(host(), COMMON_PACKAGE), forger: await engineOf(host(), FORGER) };
    return async (replaced: boolean) => {
      expect(await engineOf(host(), COMMON_PACKAGE)).toBe(before.common);
      // A replaced engine's lane reports no pid until its next engine booted: the old one may still be exiting.
      if (replaced) expect(await engineOf(host(), FORGER)).not.toBe(before.forger);
      else expect(await engineOf(host(), FORGER)).toBe(before.forger);
    };
  }

  it('kills the engine of a leaf that forges outcomes, and another package’s run settles with its own', async () => {
    const check = await engines();
    const before = view();
    // Outcomes for the first few hundred ids, its own run's among them: none is in flight in its engine but its own.
    const { victim, forger } = await attackDuringSh(['echo started', 'echo mine'], 'forge-outcomes');
    expect({ status: victim.result.status, text: victim.channels.stdout?.text }).toEqual({
      status: 200,
      text: 'started\nmine\n',
    });
    expect(forger.result).toMatchObject({
      status: 500,
      problem: {
        type: expect.stringMatching(/\/engine-crashed$/),
        detail: expect.stringMatching(/corrupt engine channel: .*\(the engine of zoo-forges-engine-frames\)/),
      },
    });
    await check(true);
    expect(view()).toEqual(before);
  });

  it('keeps another package’s exec frame, its environment included, from a leaf that reads its engine’s channel', async () => {
    const check = await engines();
    const secret = randomUUID();
    const { attacker: read } = await whileAttacking(host, 'read-frames', async () => {
      // Sent while the leaf reads fd 3 of its own engine in a loop: they go to another engine. (In
      // a shared engine the leaf races its engine's main thread for each frame, and takes one of
      // the first few: that run then never reaches the engine.)
      for (let run = 0; run < 10; run += 1) {
        const victim = await host().exec({ runtime: 'sh', body: 'echo "mine $SECRET"', env: { PATH, SECRET: secret } });
        expect({ status: victim.result.status, text: victim.channels.stdout?.text }).toEqual({
          status: 200,
          text: `mine ${secret}\n`,
        });
      }
    });
    // Nothing was sent to its own engine meanwhile: it read nothing, and its engine serves on.
    expect({ status: read.result.status, text: read.channels.out?.text }).toEqual({
      status: 200,
      text: 'reading read 0 bytes: ',
    });
    await check(false);
  });

  it('refuses a forged state: no tag appears or goes, and only the forger’s engine restarts', async () => {
    const check = await engines();
    const before = view();
    // A state saying a tag no package declares is available and `sh` is not, with outcomes it forged.
    const forger = await host().exec({ runtime: TAG, body: 'forge-state', sinks: { interact } });
    expect(view()).toEqual(before);
    expect(forger.result).toMatchObject({ status: 500, problem: { type: expect.stringMatching(/\/engine-crashed$/) } });
    await check(true);
    // And after honest runs of both packages, whose outcomes carry the engines' states.
    expect((await host().exec({ runtime: 'sh', body: 'true', env: { PATH } })).result.status).toBe(200);
    expect((await host().exec({ runtime: TAG, body: 'whoami' })).result.status).toBe(200);
    expect(view()).toEqual(before);
    expect(host().availableRuntimes()).not.toContain('ghost');
  });

  it('answers every effect call from the tag’s own leaf while another package floods forged verdicts', async () => {
    const check = await engines();
    const honest = await host().effect('sh', 'rm -rf ~');
    expect(honest).toBe('host');
    const { attacker: forger, during: verdicts } = await whileAttacking(host, 'forge-effects', () =>
      Promise.all(Array.from({ length: 40 }, () => host().effect('sh', 'rm -rf ~'))),
    );
    expect(verdicts).toEqual(Array.from({ length: 40 }, () => honest));
    // Its first verdict answered no call its engine was sent.
    expect(forger.result).toMatchObject({
      status: 500,
      problem: {
        detail: expect.stringMatching(/an effect reply to call \d+, which is not in flight in this engine/),
      },
    });
    await check(true);
  });

  it.runIf(namespace)(
    'keeps a leaf’s `kill -9 -1` to its own engine while another package’s run holds a child',
    async () => {
      const check = await engines();
      const { victim, forger } = await attackDuringSh(
        ['sleep 30 & child=$!; echo started', 'kill -0 $child && echo child alive', 'kill $child; echo mine'],
        'kill-all',
      );
      expect({ status: victim.result.status, text: victim.channels.stdout?.text }).toEqual({
        status: 200,
        text: 'started\nchild alive\nmine\n',
      });
      // kill(-1) reached every process of its own namespace: its engine among them.
      expect(forger.result).toMatchObject({
        status: 500,
        problem: { type: expect.stringMatching(/\/engine-crashed$/), detail: expect.stringMatching(/SIGKILL/) },
      });
      await check(true);
    },
  );
});

// What a service that shares an engine between packages gets (engines.shared), and what one
// package can still do to its own runs: a leaf that reads its own engine's channel takes the
// frames sent there, and the runs it took settle all the same, once the engine is held
// unresponsive for a frame it never acknowledged.
describe('packages a service groups into one engine', () => {
  const host = zooHost({
    isolation: 'process',
    packageDirs: zooDirs('healthy', 'forges-engine-frames'),
    engines: { shared: [['zoo-healthy', FORGER]] },
    limits: { graceMs: 300, unresponsiveMs: 2000 },
  });

  it('runs the grouped packages in one engine, and isolation() says so', async () => {
    expect(host().isolation().engines).toEqual([
      expect.objectContaining({ packages: ['zoo-healthy', FORGER], tags: ['healthy', TAG], pid: expect.any(Number) }),
    ]);
    expect(enginePids().engine).toEqual([await engineOf(host(), 'zoo-healthy')]);
    expect((await host().exec({ runtime: 'healthy', body: 'ok' })).channels.out?.text).toBe('ok');
  });

  it('settles a run whose exec frame a leaf of its own engine took off the channel, in bounded time', async () => {
    // Runs of its own engine while it reads: the engine's main thread reads the same fd, so a
    // frame may still reach it (that run settles 200); the first the leaf takes never does.
    const { attacker: reader, during: taken } = await whileAttacking(host, 'read-frames', async () => {
      for (let attempt = 0; attempt < 10; attempt += 1) {
        const out = await host().exec({ runtime: TAG, body: 'whoami' });
        if (out.result.status !== 200) return out;
      }
      return undefined;
    });
    expect(taken).toMatchObject({
      outcome: 'leaf-fault',
      result: {
        status: 500,
        problem: {
          type: expect.stringMatching(/\/engine-unresponsive$/),
          detail: expect.stringMatching(/was not acknowledged within 2000ms/),
        },
      },
    });
    // The reader's run settles too: with its engine, or first, its thread spinning past
    // limits.unresponsiveMs (500 executor-unresponsive).
    expect(reader.result.status).toBe(500);
    expect((await host().exec({ runtime: 'healthy', body: 'again' })).channels.out?.text).toBe('again');
  });
});
