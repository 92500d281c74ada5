import type { BenchReport, BenchRow, Stat } from './bench-report.js';

/**
 * Renders a report as a Markdown table (readable in a terminal, pasteable into
 * docs/performance.md): one line per row with median (p95) of subject and baseline, the
 * ratio, and the target with ✅/❌; a scenario that failed gets a row saying why. Notes follow.
 */
export function formatBenchTable(report: BenchReport): string {
  const { machine } = report;
  const lines = [
    `${machine.cores} cores (${machine.cpu}), Node ${machine.node}, ${machine.platform}; load ${machine.loadBefore.toFixed(2)} → ${machine.loadAfter.toFixed(2)}; ${report.isolation} tier; ${report.startedAt}, ${report.seconds.toFixed(0)} s${report.quick ? ', --quick (not for the record)' : ''}`,
    '',
    '| scenario | measure | median (p95) | baseline | median (p95) | ratio | target |',
    '|---|---|---|---|---|---|---|',
  ];
  for (const scenario of report.scenarios) {
    for (const row of scenario.rows) lines.push(formatRow(scenario.name, row));
  }
  for (const scenario of report.scenarios) {
    if (scenario.failed !== undefined)
      lines.push(`| ${scenario.name} | **failed**: ${scenario.failed} |  |  |  |  |  |`);
  }
  for (const scenario of report.scenarios) {
    for (const note of scenario.notes) lines.push('', `- ${scenario.name}: ${note}`);
  }
  return lines.join('\n');
}

function formatRow(scenario: string, row: BenchRow): string {
  const cells = [
    scenario,
    row.name,
    formatStat(row.subject, row.unit),
    row.baseline?.name ?? '',
    row.baseline ? formatStat(row.baseline.stat, row.unit) : '',
    row.ratio === undefined ? '' : `${formatNumber(row.ratio)}×${row.ratioOf ? ` (${row.ratioOf})` : ''}`,
    formatTarget(row),
  ];
  return `| ${cells.join(' | ')} |`;
}

function formatStat(stat: Stat, unit: string): string {
  if (stat.samples === 1) return `${formatNumber(stat.median)} ${unit}`;
  return `${formatNumber(stat.median)} ${unit} (${formatNumber(stat.p95)})`;
}

function formatTarget(row: BenchRow): string {
  const { target } = row;
  if (!target) return '';
  const bound = target.on === 'subject' ? `${target.op} ${target.value} ${row.unit}` : `${target.op} ${target.value}×`;
  return `${target.met ? '✅' : '❌'} ${bound}`;
}

/** Three significant figures, no exponent. */
function formatNumber(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  const abs = Math.abs(value);
  if (abs >= 100) return value.toFixed(0);
  if (abs >= 10) return value.toFixed(1);
  if (abs >= 1) return value.toFixed(2);
  return value.toPrecision(2);
}
