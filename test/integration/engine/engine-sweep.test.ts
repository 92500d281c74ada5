import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { detectPidNamespace } from '../../../src/engine/engine-command.js';
import { createHost, type Host } from '../../../src/host/index.js';
import { handshake } from '../../helpers/handshake.js';
import { survivors, survivorsAfter } from '../../helpers/survivors.js';

const COMMON = fileURLToPath(new URL('../../../src/leaves/common', import.meta.url));
const namespace = detectPidNamespace() !== null;
const PATH = process.env.PATH ?? '/usr/bin:/bin';

// A run in flight starts four processes the namespace sweep must spare: `a` carries its marker;
// `b` cleared it but is its shell's child; `c` cleared it and left for a session of its own, and
// is its shell's child still; `d` cleared it and was orphaned inside the shell's (reported) group.
// It then waits for the test's gate file, and says whether all four lived to see it.
const LONG_RUN = [
  'sleep 300 & a=$!',
  'env -u PLURNK_EXECS_RUN sleep 300 & b=$!',
  'env -u PLURNK_EXECS_RUN setsid sleep 300 </dev/null >/dev/null 2>&1 & c=$!',
  "d=$(env -u PLURNK_EXECS_RUN sh -c 'sleep 300 </dev/null >/dev/null 2>&1 & echo $!')",
  'echo started',
  'while [ ! -e "$GATE" ]; do sleep 0.05; done',
  'if kill -0 $a $b $c $d; then echo all alive; else echo lost; fi',
  'kill $a $b $c $d',
].join('\n');

// A daemon nobody reported: it drops the run marker, leaves for a session of its own, and is
// orphaned when its shell exits — the shell waits until it is outside its group first, so the
// run's own reap cannot find it.
const DAEMON_RUN = [
  'env -u PLURNK_EXECS_RUN setsid sh -c "sleep 300" </dev/null >/dev/null 2>&1 & d=$!',
  'until [ "$(cut -d" " -f6 /proc/$d/stat 2>/dev/null)" = "$d" ]; do sleep 0.01; done',
  'echo escaped',
].join('\n');

describe.runIf(namespace)('the engine sweeps its namespace at each run’s end', () => {
  let host: Host;
  let dir: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'plurnk-engine-sweep-'));
    host = await createHost({ isolation: 'process', packageDirs: [COMMON], limits: { graceMs: 300 } });
  });
  afterAll(async () => {
    await host?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('kills a daemon a run left while another run is in flight, and spares that run’s processes', async () => {
    const gate = join(dir, `gate-${randomUUID()}`);
    const long = { marker: randomUUID() };
    const daemon = { marker: randomUUID() };
    const started = handshake();
    let longSettled = false;
    const running = host
      .exec({
        runtime: 'sh',
        body: LONG_RUN,
        timeoutMs: 120_000,
        env: { PATH, GATE: gate, ZOO_RUN: long.marker },
        sinks: { write: () => started.resolve() },
      })
      .finally(() => (longSettled = true));
    await started.promise;

    const left = await host.exec({ runtime: 'sh', body: DAEMON_RUN, env: { PATH, ZOO_RUN: daemon.marker } });
    expect({ status: left.result.status, text: left.channels.stdout?.text }).toEqual({
      status: 200,
      text: 'escaped\n',
    });
    // The daemon dies at that run's end, while the long run is still in flight.
    expect(await survivorsAfter([daemon], 15_000)).toEqual([]);
    expect(longSettled).toBe(false);
    // The long run's shell and its four children all still live.
    expect(survivors(long).length).toBeGreaterThanOrEqual(5);

    writeFileSync(gate, '');
    const out = await running;
    expect({ status: out.result.status, text: out.channels.stdout?.text }).toEqual({
      status: 200,
      text: 'started\nall alive\n',
    });
    expect(await survivorsAfter([long])).toEqual([]);
  });
});
