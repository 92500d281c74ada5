import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CHECK_RUN_TIMEOUT_MS } from '../../../src/check/check-package.js';
import { defaultRssMb } from '../../../src/host/defaults.js';
import { resolveHostOptions } from '../../../src/host/host-options.js';

const KiB = 1024;
const MiB = 1024 * 1024;
const UNITS: Record<string, number> = { KiB, MiB };
const source = (path: string) => readFileSync(new URL(`../../../${path}`, import.meta.url), 'utf8');

// Each default as the documentation promises it: the code, the JSDoc of HostOptions and
// docs/host.md must all say the same number.
const LIMITS = {
  heapMb: 1024,
  externalMb: 1024,
  outputBytes: 16 * MiB,
  noticeBytes: MiB,
  problemBytes: 64 * KiB,
  violationBytes: 64 * KiB,
  consoleBytes: 4096,
  graceMs: 2000,
  heartbeatMs: 250,
  unresponsiveMs: 30_000,
};

describe('host defaults', () => {
  it('fills every option the documentation says, and nothing else', () => {
    expect(resolveHostOptions({})).toEqual({
      probeTimeoutMs: 3000,
      loadTimeoutMs: 15_000,
      defaultRuntime: undefined,
      recycle: 'each-run',
      ...LIMITS,
      rssMb: defaultRssMb(),
      breaker: { crashes: 3, windowMs: 300_000, cooldownMs: 60_000 },
      onProbe: undefined,
    });
    expect(CHECK_RUN_TIMEOUT_MS).toBe(10_000);
  });

  it.each(Object.entries(LIMITS))('says limits.%s defaults to %i in the JSDoc of HostOptions', (name, value) => {
    const doc = new RegExp(`/\\*\\*([^*]|\\*(?!/))*\\*/\\s*${name}\\??:`).exec(source('src/host/host-types.ts'))?.[0];
    const stated = /Default ([\d ,]+?) ?(KiB|MiB)?\./.exec(doc ?? '');
    expect(stated, `no "Default N" in the JSDoc of limits.${name}`).not.toBeNull();
    const number = Number(stated![1]!.replace(/[ ,]/g, '')) * (UNITS[stated![2] ?? ''] ?? 1);
    expect(number).toBe(value);
  });

  it.each(Object.entries(LIMITS))('says limits.%s defaults to %i in docs/host.md', (name, value) => {
    const row = new RegExp(`^\\| \`limits\\.${name}\` \\| ([^|]+) \\|`, 'm').exec(source('docs/host.md'));
    expect(row, `no row for limits.${name} in docs/host.md`).not.toBeNull();
    const [, amount, unit] = /^([\d ,]+?)(?: (KiB|MiB))?$/.exec(row![1]!.trim())!;
    expect(Number(amount!.replace(/[ ,]/g, '')) * (UNITS[unit ?? ''] ?? 1)).toBe(value);
  });
});
