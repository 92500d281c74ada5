import { cpus } from 'node:os';
import { bootHost, bootProcessHost } from '../host/boot-host.js';
import { discover } from '../discovery/discover.js';
import type { Availability, Isolation } from '../model/host-types.js';
import type { Discovery } from '../contracts/registry.js';
import { EXIT, type CliIo, type Command } from './cli-io.js';
import { describeIsolation } from './describe-isolation.js';
import { formatTable } from './format-table.js';
import { parseFlags, parseIsolation, parseMs } from './parse-flags.js';
import { startProgress } from './progress-line.js';

/** One row of `probe`: a registered tag and its boot verdict. */
export interface ProbeRow {
  tag: string;
  package: string;
  available: boolean;
  detail: string | null;
  probeMs: number;
}

const USAGE = `Usage: plurnk-execs probe [--json] [--timeout <ms>] [--isolation process|thread]

Discovers the executor leaves installed in the nearest node_modules, boots the isolating host
(every tag in its own worker thread, probed concurrently) and prints one row per tag: package,
availability, probe latency and detail, then which containment is in effect and the boot total.

  --json           print a JSON document instead of the table (with host.stats() after boot)
  --timeout <ms>   per-probe timeout (default 3000)
  --isolation <t>  process (default): the threads in an engine process of the host's own;
                   thread: in this process (docs/isolation.md)
`;

/** `plurnk-execs probe`. */
export const probeCommand: Command = {
  name: 'probe',
  summary: 'boot the host on the installed leaves and print every tag’s verdict',
  usage: USAGE,
  async run(argv: string[], io: CliIo): Promise<number> {
    const { values } = parseFlags(
      'probe',
      argv,
      { json: { type: 'boolean' }, timeout: { type: 'string' }, isolation: { type: 'string' } },
      { names: [], required: 0 },
    );
    if (values.help) return (void io.stdout.write(USAGE), EXIT.ok);
    const probeTimeoutMs = parseMs('probe', '--timeout', values.timeout as string | undefined);
    const isolation = parseIsolation('probe', values.isolation as string | undefined);

    const started = performance.now();
    // A diagnostic boots what is valid and lists the rest, rather than stopping at the first bad package.
    const discovery = await discover({ cwd: io.cwd, onInvalidLeaf: 'skip' });
    const total = discovery.registry.size;
    const pending = new Set(discovery.registry.keys());
    const progress = startProgress(
      io.stderr,
      io.stderrIsTTY,
      () =>
        `probing ${total} tags: ${total - pending.size} done, waiting for ${[...pending].slice(0, 4).join(', ')}${pending.size > 4 ? ', …' : ''}`,
    );
    const verdicts = new Map<string, Availability>();
    const boot = isolation === 'process' ? bootProcessHost : bootHost;
    const host = await boot(discovery, {
      ...(probeTimeoutMs === undefined ? {} : { probeTimeoutMs }),
      onProbe: (tag, verdict) => {
        pending.delete(tag);
        verdicts.set(tag, verdict);
      },
    }).finally(() => progress.done());
    const bootMs = Math.round(performance.now() - started);
    const contained = host.isolation();
    // Taken before the close: the threads the boot left warm, and the engine that holds them.
    const stats = values.json === true ? await host.stats() : undefined;
    await host.close();

    const rows: ProbeRow[] = [...discovery.registry.values()].map((entry) => {
      const verdict = verdicts.get(entry.runtime);
      return {
        tag: entry.runtime,
        package: entry.packageName,
        available: verdict?.available ?? false,
        detail: verdict?.detail ?? null,
        probeMs: verdict?.probeMs ?? 0,
      };
    });
    if (values.json) {
      const document = {
        bootMs,
        isolation: contained,
        tags: rows,
        disabled: discovery.disabled,
        skipped: discovery.skipped,
        invalid: discovery.invalid,
        searched: discovery.searched,
        node: process.version,
        cores: cpus().length,
        stats,
      };
      io.stdout.write(`${JSON.stringify(document, null, 2)}\n`);
    } else {
      io.stdout.write(renderProbeTable(rows, bootMs, discovery, contained));
    }
    return EXIT.ok;
  },
};

function renderProbeTable(
  rows: ProbeRow[],
  bootMs: number,
  { disabled, skipped, invalid = [], searched = [] }: Discovery,
  isolation: Isolation,
): string {
  const body = rows.map((row) => [
    row.tag,
    row.package,
    row.available ? 'yes' : 'no',
    `${row.probeMs} ms`,
    row.detail ?? '',
  ]);
  const available = rows.filter((row) => row.available).length;
  let text =
    rows.length === 0
      ? `no executor leaves found (searched ${searched.join(', ') || 'no node_modules above this directory'}); install one, e.g. npm install @plurnk/plurnk-execs-common\n`
      : formatTable(['TAG', 'PACKAGE', 'AVAILABLE', 'PROBE', 'DETAIL'], body);
  if (disabled.length > 0) text += `disabled by policy: ${disabled.join(', ')}\n`;
  for (const pkg of invalid) {
    const why = pkg.excluded ? 'invalid, and every tag it declares is excluded by policy' : 'invalid, skipped';
    text += `${pkg.packageName} (${pkg.packageDir}): ${why}:\n${pkg.errors.map((e) => `  ${e.replace(/\n/g, '\n  ')}`).join('\n')}\n`;
  }
  if (skipped.length > 0) text += `withheld by PLURNK_PLUGINS_TRUSTED_ONLY: ${skipped.join(', ')}\n`;
  text += `${describeIsolation(isolation)}\n`;
  return `${text}booted ${rows.length} tags (${available} available) in ${bootMs} ms\n`;
}
