/**
 * The human form of a check report (`plurnk-execs check` without `--json`): the package, one
 * table row per tag, every fault, warning and skip with its reason, one line per tag of what
 * its example's first run did, the containment, and the verdict line.
 */
import {
  CONTRACT_CHECKS,
  type CheckItem,
  type CheckReport,
  type ExampleVerdict,
  type TagCheck,
  type TagVerdict,
  type Verdict,
} from '../check/check-report.js';
import { formatTable } from './format-table.js';
import { describeIsolation } from './describe-isolation.js';
import { formatRunFigures } from './format-run-figures.js';

const HEADERS: Record<(typeof CONTRACT_CHECKS)[number], string> = {
  undeclaredChannels: 'UNDECLARED',
  console: 'CONSOLE',
  signal: 'SIGNAL',
  processes: 'PROCESSES',
  state: 'STATE',
  result: 'RESULT',
  violations: 'VIOLATIONS',
};

/** A tag's verdict in the VERDICT column. */
export const VERDICT_CELLS: Record<TagVerdict, string> = {
  ok: 'clean',
  problem: 'warning',
  'not-run': 'not run',
  fault: 'FAULT',
};

/**
 * The report as text: the package, one table row per tag (`ok`, `FAIL`, `warn` or `-` per
 * column), every fault, warning and skip with its reason, what each example did, the verdict line.
 */
export function renderCheck(report: CheckReport): string {
  let text = `check ${report.package.name ?? '(unnamed)'} (${report.package.dir})\n`;
  if (report.discovery.error !== null) text += `discovery FAILED:\n${indent(report.discovery.error)}\n`;
  if (report.discovery.disabledByDefault.length > 0)
    text += `disabled by the package's .env.defaults, checked anyway: ${report.discovery.disabledByDefault.join(', ')}\n`;
  for (const notice of report.discovery.notices) text += `notice: ${notice}\n`;
  if (report.tags.length === 0) return `${text}no runtime tags declared\nNOT CLEAN\n`;
  const header = ['TAG', 'MANIFEST', 'PROBE', 'EXAMPLE', ...CONTRACT_CHECKS.map((name) => HEADERS[name]), 'VERDICT'];
  text += formatTable(header, report.tags.map(row));
  const notes = report.tags.flatMap(explain);
  if (notes.length > 0) text += `\n${notes.join('\n')}\n`;
  const did = report.tags.filter((tag) => tag.runs.length > 0);
  if (did.length > 0) {
    const width = Math.max(...did.map((tag) => tag.tag.length));
    text += `\nwhat each example did (its first run; every run in --json):\n`;
    text += did.map((tag) => `${tag.tag.padEnd(width)}  ${formatRunFigures(tag.runs[0]!)}\n`).join('');
  }
  if (report.isolation !== null) text += `\n${describeIsolation(report.isolation)}`;
  const verdict = report.clean ? 'clean' : report.strict && !hasFault(report) ? 'NOT CLEAN (--strict)' : 'NOT CLEAN';
  return `${text}\n${verdict} — ${countVerdicts(report)}\n`;
}

/** `3 tag(s): 1 fault, 1 ran with a Problem, 0 not run`. */
export function countVerdicts(report: CheckReport): string {
  const count = (verdict: TagVerdict) => report.tags.filter((tag) => tag.verdict === verdict).length;
  return `${report.tags.length} tag(s): ${count('fault')} fault, ${count('problem')} ran with a Problem, ${count('not-run')} not run`;
}

function hasFault(report: CheckReport): boolean {
  return report.discovery.verdict === 'fail' || report.tags.some((tag) => tag.verdict === 'fault');
}

function row(tag: TagCheck): string[] {
  const probe = tag.probe.verdict === 'pass' ? `ok ${tag.probe.probeMs} ms` : cell(tag.probe.verdict);
  const example =
    tag.example.status === null ? cell(tag.example.verdict) : `${cell(tag.example.verdict)} ${tag.example.status}`;
  return [
    tag.tag,
    cell(tag.manifest.verdict),
    probe,
    example,
    ...CONTRACT_CHECKS.map((name) => cell(tag.checks[name].verdict)),
    VERDICT_CELLS[tag.verdict],
  ];
}

function cell(verdict: Verdict | ExampleVerdict): string {
  return verdict === 'pass' ? 'ok' : verdict === 'fail' ? 'FAIL' : verdict === 'problem' ? 'warn' : '-';
}

/** `<tag> <part>: <why>` for every part that failed, warned or was skipped, once per distinct reason; then the warning. */
function explain(tag: TagCheck): string[] {
  const lines: string[] = [];
  for (const error of tag.manifest.errors) lines.push(`${tag.tag} manifest: ${error}`);
  const seen = new Set<string>();
  const note = (part: string, item: CheckItem, label = item.verdict === 'skip' ? ' (skipped)' : '') => {
    if (item.verdict === 'pass' || item.detail === null) return;
    const key = `${item.verdict}:${item.detail}`;
    if (seen.has(key) && item.verdict === 'skip') return;
    seen.add(key);
    lines.push(`${tag.tag} ${part}${label}: ${item.detail}`);
  };
  note('probe', { verdict: tag.probe.verdict, detail: tag.probe.detail });
  const { example } = tag;
  // A skipped example says why it did not count ("not run: needs …"), which names the Problem's detail already.
  const detail =
    example.problem === null || example.verdict === 'skip' ? example.detail : `${example.problem}: ${example.detail}`;
  if (example.verdict === 'problem') note('example', { verdict: 'fail', detail }, ' (ran with a Problem)');
  else note('example', { verdict: example.verdict, detail });
  for (const name of CONTRACT_CHECKS) note(name, tag.checks[name]);
  if (tag.warning !== null) lines.push(`${tag.tag} warning: ${tag.warning}`);
  return lines;
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((line) => `  ${line}`)
    .join('\n');
}
