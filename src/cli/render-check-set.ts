/**
 * The summary that ends `plurnk-execs check` over a directory of several leaf packages: one
 * row per package with its tags counted by verdict, then the set's verdict line. Each
 * package's own report is printed before it (render-check.ts).
 */
import { TAG_VERDICTS, type CheckReport, type CheckSetReport } from '../check/check-report.js';
import { formatTable } from './format-table.js';
import { VERDICT_CELLS } from './render-check.js';

/** `summary: N package(s) in <dir>`, the table, and `clean — …` or `NOT CLEAN — k of N package(s)…`. */
export function renderCheckSet(set: CheckSetReport): string {
  const header = ['PACKAGE', 'TAGS', ...TAG_VERDICTS.map((verdict) => VERDICT_CELLS[verdict].toUpperCase()), 'VERDICT'];
  const rows = set.packages.map((report) => [
    report.package.name ?? report.package.dir,
    String(report.tags.length),
    ...TAG_VERDICTS.map((verdict) => String(report.tags.filter((tag) => tag.verdict === verdict).length)),
    verdictOf(report),
  ]);
  const notClean = set.packages.filter((report) => !report.clean).length;
  const total = `${set.packages.length} package(s)`;
  const last = set.clean ? `clean — ${total}` : `NOT CLEAN — ${notClean} of ${total} not clean`;
  return `summary: ${total} in ${set.dir}${set.strict ? ' (--strict)' : ''}\n${formatTable(header, rows)}\n${last}\n`;
}

function verdictOf(report: CheckReport): string {
  if (report.discovery.verdict === 'fail') return 'NOT CLEAN (discovery failed)';
  if (report.tags.length === 0) return 'NOT CLEAN (no tags)';
  return report.clean ? 'clean' : 'NOT CLEAN';
}
