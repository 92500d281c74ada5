import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { tierOptions } from '../../helpers/tier.js';
import { createHost, type Host } from '../../../src/host/index.js';
import { runCli } from '../../helpers/run-cli.js';
import { survivors } from '../../helpers/survivors.js';
import { expectContained, recordSinks, watchHostErrors, zooDirs } from '../../helpers/zoo.js';
import { scratchDir } from '../../helpers/scratch.js';

const CAP = 64 * 1024;
/** The flood's repeating unit: 1 + 2 + 3 + 4 UTF-8 bytes. */
const UNIT = 'aé€😀';

// Output a leaf produces in excess or in the wrong place: a flood past the per-run cap,
// console output instead of a channel, writes to a channel it never declared.
describe('the zoo: output faults', () => {
  let host: Host;
  const hostErrors = watchHostErrors();
  beforeAll(async () => {
    host = await createHost({
      ...tierOptions(),
      packageDirs: zooDirs('healthy', 'output-flood', 'console-spam', 'writes-undeclared', 'host/exec-subprocess'),
      breaker: { crashes: 1000 },
      limits: { outputBytes: CAP, consoleBytes: 256, graceMs: 300 },
    });
  });
  afterEach(() => expect(hostErrors.errors).toEqual([]));
  afterAll(async () => {
    await host.close();
    hostErrors.dispose();
  });

  it('fails a flood 500 output-limit-exceeded, keeping an intact prefix that ends on a character', async () => {
    const out = await expectContained(host, {
      runtime: 'output-flood',
      problem: 'exec/output-limit-exceeded',
      status: 500,
      forcedEnd: { reason: 'output-limit', terminated: expect.any(Boolean) as boolean },
      kept: UNIT.repeat(10),
      next: { body: 'ok' },
    });
    const kept = out.channels.out!.text;
    expect(Buffer.byteLength(kept)).toBeLessThanOrEqual(CAP);
    expect(Buffer.byteLength(kept)).toBeGreaterThan(CAP - 4);
    expect(UNIT.repeat(Math.ceil(kept.length / UNIT.length) + 1).startsWith(kept)).toBe(true);
    expect(kept).not.toContain('\uFFFD');
    // Past the cap nothing more is taken, on any channel: the leaf's closing write was dropped.
    expect(out.channels.err!.text).toBe('');
    expect(out.result.problem?.detail).toBe(
      `the run wrote more than limits.outputBytes ${CAP} bytes; the output up to the limit is kept`,
    );
  });

  it('stops a subprocess flood (sh: yes) at the cap and kills its process group', async () => {
    const recorder = recordSinks();
    const running = host.exec({ runtime: 'sh', body: 'echo $$; exec yes', sinks: recorder.sinks });
    const pgid = Number((await recorder.firstWrite).split('\n')[0]);
    const out = await running;
    expect(out.result.problem?.type).toBe('https://problems.plurnk.xyz/scheme/exec/output-limit-exceeded');
    const text = out.channels.stdout!.text;
    expect(Buffer.byteLength(text)).toBe(CAP);
    expect(text).toBe(`${pgid}\n${'y\n'.repeat(CAP)}`.slice(0, CAP));
    expect(survivors(pgid)).toEqual([]);
  });

  it('captures console spam, bounded, as a contract violation; the leaf’s result stands and the host prints nothing', async () => {
    const printed = vi.spyOn(process.stdout, 'write');
    const printedErr = vi.spyOn(process.stderr, 'write');
    try {
      const out = await expectContained(host, {
        runtime: 'console-spam',
        status: 200,
        forcedEnd: null,
        kept: 'ok',
        next: { body: 'ok' },
      });
      const spam = out.containment?.console;
      expect(spam?.bytes).toBeGreaterThan(40_000);
      expect(Buffer.byteLength(spam!.text)).toBeLessThanOrEqual(256);
      expect(
        spam!.text.startsWith('zoo-console-spam line 0\nzoo-console-spam error 0\nzoo-console-spam stdout 0\n'),
      ).toBe(true);
      expect(out.violations).toEqual([
        {
          kind: 'console-output',
          detail: expect.stringMatching(
            /^console output: the leaf printed \d+ bytes through console\.\*, stdout or stderr instead of writing to a declared channel/,
          ),
        },
      ]);
      // The run's thread is gone; had anything been forwarded to this process it would be here.
      await host.exec({ runtime: 'healthy', body: 'flush' });
      const seen = [...printed.mock.calls, ...printedErr.mock.calls].map(([chunk]) => String(chunk)).join('');
      expect(seen).not.toContain('zoo-console-spam');
    } finally {
      printed.mockRestore();
      printedErr.mockRestore();
    }
    expect((await host.exec({ runtime: 'console-spam', body: 'ok' })).containment?.console).toBeNull();
  });

  it.each([
    ['raw-debug', 'zoo-console-spam raw debug\n'],
    ['console-instance', 'zoo-console-spam own console\nzoo-console-spam own console error\n'],
  ])('captures console output through %s as it does console.*', async (body, text) => {
    const out = await host.exec({ runtime: 'console-spam', body });
    expect(out.result).toEqual({ status: 200 });
    expect(out.channels.out!.text).toBe('ok');
    expect(out.containment?.console).toEqual({ bytes: Buffer.byteLength(text), text });
    expect(out.violations.map((v) => v.kind)).toEqual(['console-output']);
  });

  it('never prints console spam through the CLI either', async () => {
    const project = scratchDir('zoo-console');
    mkdirSync(join(project, 'node_modules'));
    for (const dir of zooDirs('console-spam')) symlinkSync(dir, join(project, 'node_modules', 'zoo-console-spam'));
    const { code, stdout, stderr } = await runCli(['exec', 'console-spam', 'fault'], { cwd: project });
    expect(code).toBe(0);
    expect(stdout).toBe('out│ ok\n');
    expect(stdout + stderr).not.toContain('zoo-console-spam line');
    expect(stderr).toContain('contract violation (console-output): console output: the leaf printed');
  });

  it('refuses writes and state changes on an undeclared channel as violations, keeping declared output', async () => {
    const out = await expectContained(host, {
      runtime: 'writes-undeclared',
      status: 200,
      forcedEnd: null,
      kept: 'before the fault',
      next: { body: 'ok' },
    });
    expect(out.channels).toEqual({
      out: {
        mimetype: 'text/plain',
        state: 'closed',
        text: 'before the fault, after',
        parts: [{ mimetype: 'text/plain', text: 'before the fault, after' }],
      },
    });
    expect(out.violations).toEqual([
      { kind: 'undeclared-channel', detail: 'write to undeclared channel "secrets" (declared: out)' },
      { kind: 'undeclared-channel', detail: 'setState to undeclared channel "secrets" (declared: out)' },
    ]);
  });
});
