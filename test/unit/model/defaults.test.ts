import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CHECK_RUN_TIMEOUT_MS } from '../../../src/check/check-package.js';
import { availableParallelism, tmpdir } from 'node:os';
import {
  DEFAULT_HOOK_TIMEOUT_MS,
  defaultRssMb,
  defaultThreadStarts,
  defaultThreadStartsPerTag,
} from '../../../src/model/defaults.js';
import { resolveHostOptions } from '../../../src/model/host-options.js';
import { scratchDir } from '../../helpers/scratch.js';

const KiB = 1024;
const MiB = 1024 * 1024;
const UNITS: Record<string, number> = { KiB, MiB };
const source = (path: string) => readFileSync(new URL(`../../../${path}`, import.meta.url), 'utf8');

// Each default as the documentation promises it: the code, the JSDoc of the limits record
// (HostOptions.limits is that record, every field optional) and docs/host.md must all say the same number.
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
  pendingInteractions: 16,
  sinkMessages: 1_000_000,
  enginePids: 1024,
};

describe('host defaults', () => {
  it('fills every option the documentation says, and nothing else', () => {
    expect(resolveHostOptions({})).toEqual({
      probeTimeoutMs: 3000,
      loadTimeoutMs: 15_000,
      defaultRuntime: undefined,
      recycle: 'each-run',
      limits: {
        ...LIMITS,
        rssMb: defaultRssMb(),
        engineMemoryMb: Math.max(Math.floor(1.5 * defaultRssMb()), defaultRssMb() + 512),
      },
      breaker: { crashes: 3, windowMs: 300_000, cooldownMs: 60_000 },
      admission: {
        threadStarts: availableParallelism(),
        threadStartsPerTag: Math.ceil(availableParallelism() / 2),
        queueTimeoutMs: 60_000,
      },
      spares: { max: 16, idleMs: 60_000 },
      permissions: { fsWrite: [resolve(process.cwd()), resolve(tmpdir())], addons: false, network: true },
      onProbe: undefined,
    });
    expect(CHECK_RUN_TIMEOUT_MS).toBe(10_000);
  });

  it.each(Object.entries(LIMITS))('says limits.%s defaults to %i in the JSDoc of Limits', (name, value) => {
    const doc = new RegExp(`/\\*\\*([^*]|\\*(?!/))*\\*/\\s*${name}\\??:`).exec(source('src/contracts/limits.ts'))?.[0];
    const stated = /Default ([\d ,]+?) ?(KiB|MiB)?\./.exec(doc ?? '');
    expect(stated, `no "Default N" in the JSDoc of limits.${name}`).not.toBeNull();
    const number = Number(stated![1]!.replace(/[ ,]/g, '')) * (UNITS[stated![2] ?? ''] ?? 1);
    expect(number).toBe(value);
  });

  // Both tables of defaults, docs/host.md's options and docs/faults.md's limits, say each number.
  const NUMBERS = [
    ...Object.entries(LIMITS).map(([name, value]) => [`limits.${name}`, value] as const),
    ['probeTimeoutMs', 3000],
    ['loadTimeoutMs', 15_000],
    ['hookTimeoutMs', 10_000],
    ['admission.queueTimeoutMs', 60_000],
  ] as const;
  const row = (doc: string, name: string) => {
    const cell = new RegExp(`^\\| \`${name.replace('.', '\\.')}\` \\| ([^|]+) \\|`, 'm').exec(source(doc));
    expect(cell, `no row for ${name} in ${doc}`).not.toBeNull();
    return cell![1]!.trim();
  };
  it.each(['docs/host.md', 'docs/faults.md'].flatMap((doc) => NUMBERS.map(([name, value]) => [doc, name, value])))(
    'says in %s that %s defaults to %i',
    (doc, name, value) => {
      const [, amount, unit] = /^([\d ,]+?)(?: (KiB|MiB))?$/.exec(row(doc as string, name as string))!;
      expect(Number(amount!.replace(/[ ,]/g, '')) * (UNITS[unit ?? ''] ?? 1)).toBe(value);
    },
  );

  it('says the breaker, the recycling and the hook bound the code uses, in both tables', () => {
    expect(DEFAULT_HOOK_TIMEOUT_MS).toBe(10_000);
    const { crashes, windowMs, cooldownMs } = resolveHostOptions({}).breaker;
    expect(row('docs/host.md', 'breaker')).toBe(
      `\`{ crashes: ${crashes}, windowMs: ${windowMs}, cooldownMs: ${cooldownMs} }\``,
    );
    expect(row('docs/faults.md', 'breaker')).toBe(
      `${crashes} crashes / ${windowMs / 60_000} min, ${cooldownMs / 1000} s cool-down`,
    );
    expect(row('docs/host.md', 'recycle')).toBe(`\`'${resolveHostOptions({}).recycle as string}'\``);
    expect(row('docs/faults.md', 'limits.rssMb')).toBe("half the machine's memory, or of the cgroup limit when lower");
    // The engine's hard bound follows rssMb unless it is given, and says so in both tables.
    expect(resolveHostOptions({ limits: { rssMb: 4000 } }).limits.engineMemoryMb).toBe(6000);
    // At least 512 MB above a small rssMb: room for the soft cap to act first, and for an engine to boot at all.
    expect(resolveHostOptions({ limits: { rssMb: 1 } }).limits.engineMemoryMb).toBe(513);
    expect(resolveHostOptions({ limits: { rssMb: 400, engineMemoryMb: 256 } }).limits.engineMemoryMb).toBe(256);
    for (const doc of ['docs/host.md', 'docs/faults.md'])
      expect(row(doc, 'limits.engineMemoryMb')).toBe('1.5 × `limits.rssMb`, at least `rssMb` + 512');
  });

  it("keeps 16 spares host-wide, halving an unused tag's every minute, and says so in docs/host.md", () => {
    // Spares are the host's own business, not a limit a leaf runs into: docs/host.md only.
    expect(row('docs/host.md', 'spares.max')).toBe('16');
    expect(row('docs/host.md', 'spares.idleMs')).toBe('60 000');
    expect(() => resolveHostOptions({ spares: { max: -1 } })).toThrow(/invalid host options: .*spares/);
    expect(() => resolveHostOptions({ spares: { idle: 1 } } as never)).toThrow(/invalid host options: .*spares/);
  });

  it('starts one thread per core at once, half of them per tag, never none, and says so in both tables', () => {
    expect([1, 2, 3, 8].map((cores) => [defaultThreadStarts(cores), defaultThreadStartsPerTag(cores)])).toEqual([
      [1, 1],
      [2, 1],
      [3, 2],
      [8, 4],
    ]);
    expect(row('docs/host.md', 'admission.threadStarts')).toBe('one per core');
    expect(row('docs/host.md', 'admission.threadStartsPerTag')).toBe('half the cores, rounded up');
    expect(row('docs/faults.md', 'admission.threadStarts')).toBe('one per core');
  });

  it('rejects a limit that is not a positive number, naming it', () => {
    for (const limits of [{ pendingInteractions: 0 }, { sinkMessages: 1.5 }, { heapMb: 4 }, { graceMs: -1 }])
      expect(() => resolveHostOptions({ limits })).toThrow(/invalid host options: .*limits/);
    expect(() => resolveHostOptions({ limits: { pending: 1 } } as never)).toThrow(
      /limits\.pending: unknown key "pending"; the allowed keys are .*pendingInteractions, sinkMessages/,
    );
  });

  it('rejects an admission option that is not a positive number, naming it', () => {
    for (const admission of [{ threadStarts: 0 }, { threadStartsPerTag: 1.5 }, { queueTimeoutMs: -1 }, { queue: 1 }])
      expect(() => resolveHostOptions({ admission } as never)).toThrow(/invalid host options: .*admission/);
  });

  // limits.rssMb: half the machine's memory, or of the cgroup limit when lower. A fake
  // cgroup directory stands in for /sys/fs/cgroup; the machine has 8 GiB.
  describe('limits.rssMb from the cgroup', () => {
    const MACHINE = 8 * 1024 * MiB;
    const cgroup = (files: Record<string, string>) => {
      const root = scratchDir('cgroup');
      for (const [path, text] of Object.entries(files)) {
        mkdirSync(join(root, path, '..'), { recursive: true });
        writeFileSync(join(root, path), text);
      }
      return root;
    };

    it.each([
      ['cgroup v2 memory.max below the machine', { 'memory.max': `${2 * 1024 * MiB}\n` }, 0.5 * 2 * 1024],
      ['cgroup v1 memory.limit_in_bytes', { 'memory/memory.limit_in_bytes': `${1024 * MiB}\n` }, 0.5 * 1024],
      ['cgroup v2 "max" (no limit)', { 'memory.max': 'max\n' }, 0.5 * 8 * 1024],
      [
        'cgroup v1 unlimited (a huge number)',
        { 'memory/memory.limit_in_bytes': '9223372036854771712\n' },
        0.5 * 8 * 1024,
      ],
      ['a cgroup limit above the machine', { 'memory.max': `${16 * 1024 * MiB}\n` }, 0.5 * 8 * 1024],
      ['no cgroup files at all', {}, 0.5 * 8 * 1024],
    ])('takes half of the lower of the machine and the cgroup limit: %s', (_case, files, expected) => {
      expect(defaultRssMb(cgroup(files), MACHINE)).toBe(Math.floor(expected));
    });

    it('prefers cgroup v2 when both layouts are present', () => {
      const root = cgroup({ 'memory.max': `${1024 * MiB}`, 'memory/memory.limit_in_bytes': `${3 * 1024 * MiB}` });
      expect(defaultRssMb(root, MACHINE)).toBe(Math.floor(0.5 * 1024));
    });
  });
});
