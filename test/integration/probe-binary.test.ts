import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { onProcessGroup, signalGroup, SubprocessExecutor } from '../../src/index.js';
import { handshake } from '../helpers/handshake.js';
import { survivorsAfter } from '../helpers/survivors.js';
import { scratchDir } from '../helpers/scratch.js';

class WithBinary extends SubprocessExecutor {
  constructor(private readonly bin: string) {
    super({ runtime: 'probe-test', glyph: '' });
  }
  protected override get binary(): string {
    return this.bin;
  }
}

let groups: number[] = [];
/** Resolves with the first group a probe reports: the handshake that it started. */
let firstGroup = handshake<number>();
let unsubscribe: () => void;
beforeEach(() => {
  groups = [];
  firstGroup = handshake<number>();
  unsubscribe = onProcessGroup((pgid) => {
    groups.push(pgid);
    firstGroup.resolve(pgid);
  });
});
afterEach(() => {
  unsubscribe();
  // A failed test must not leave its processes behind for the next one (or the machine).
  for (const pgid of groups) signalGroup(pgid, 'SIGKILL');
});

describe('SubprocessExecutor.probe', () => {
  it('reports a present binary as available with its version line', async () => {
    const verdict = await new WithBinary('bash').probe();
    expect(verdict.available).toBe(true);
    expect(verdict.detail).toMatch(/^GNU bash, version \d/);
  });

  it('is available without running anything when it names no binary (the 1.x default)', async () => {
    expect(await new SubprocessExecutor({ runtime: 'python', glyph: '' }).probe()).toEqual({ available: true });
    expect(groups).toEqual([]);
  });

  it('reports a missing binary as unavailable with an actionable detail', async () => {
    await expect(new WithBinary('no-such-binary-xyz').probe()).resolves.toEqual({
      available: false,
      detail: 'no-such-binary-xyz not found on PATH',
    });
  });

  it('starts nothing when the signal is already aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    const verdict = await new WithBinary('bash').probe(controller.signal);
    expect(verdict).toEqual({ available: false });
    expect(groups).toEqual([]);
  });

  it('reaps a probe that hangs when its signal is aborted', async () => {
    const dir = scratchDir('execs-probe');
    const script = join(dir, 'hangs');
    writeFileSync(script, '#!/bin/sh\nsleep 1000 &\nsleep 1000\n');
    chmodSync(script, 0o755);
    const controller = new AbortController();
    const verdict = new WithBinary(script).probe(controller.signal);
    await firstGroup.promise;
    controller.abort();
    expect(await verdict).toEqual({ available: false });
    expect(await survivorsAfter(groups)).toEqual([]);
  });
});
