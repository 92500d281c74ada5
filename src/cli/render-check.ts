import {
  CONTRACT_CHECKS,
  type CheckItem,
  type CheckReport,
  type TagCheck,
  type Verdict,
} from '../check/check-report.js';
import { formatTable } from './format-table.js';
import { describeIsolation } from './describe-isolation.js';

const HEADERS: Record<(typeof CONTRACT_CHECKS)[number], string> = {
  undeclaredChannels: 'UNDECLARED',
  console: 'CONSOLE',
  signal: 'SIGNAL',
  processes: 'PROCESSES',
  state: 'STATE',
  result: 'RESULT',
  violations: 'VIOLATIONS',
};

/**
 * The human form of a check report: the package, one table row per tag (`ok`, `FAIL` or `-`
 * per column), then every failure and skip with its reason, then the verdict line.
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
  const failed = report.tags.filter((tag) => tag.verdict === 'fail').length;
  const skipped = report.tags.filter((tag) => tag.verdict === 'skip').length;
  const counts = `${report.tags.length} tag(s): ${failed} failed, ${skipped} skipped`;
  if (report.isolation !== null) text += `\n${describeIsolation(report.isolation)}`;
  return `${text}\n${report.clean ? `clean — ${counts}` : `NOT CLEAN — ${counts}`}\n`;
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
    tag.verdict === 'fail' ? 'FAIL' : tag.verdict === 'pass' ? 'clean' : 'skipped',
  ];
}

function cell(verdict: Verdict): string {
  return verdict === 'pass' ? 'ok' : verdict === 'fail' ? 'FAIL' : '-';
}

/** `<tag> <part>: <why>` for every part that failed or was skipped, once per distinct reason. */
function explain(tag: TagCheck): string[] {
  const lines: string[] = [];
  for (const error of tag.manifest.errors) lines.push(`${tag.tag} manifest: ${error}`);
  const seen = new Set<string>();
  const note = (part: string, item: CheckItem) => {
    if (item.verdict === 'pass' || item.detail === null) return;
    const key = `${item.verdict}:${item.detail}`;
    if (seen.has(key) && item.verdict === 'skip') return;
    seen.add(key);
    lines.push(`${tag.tag} ${part}${item.verdict === 'skip' ? ' (skipped)' : ''}: ${item.detail}`);
  };
  note('probe', { verdict: tag.probe.verdict, detail: tag.probe.detail });
  note('example', {
    verdict: tag.example.verdict,
    // A skipped example says why it did not count ("not run: needs …"), which names the Problem's detail already.
    detail:
      tag.example.problem === null || tag.example.verdict === 'skip'
        ? tag.example.detail
        : `${tag.example.problem}: ${tag.example.detail}`,
  });
  for (const name of CONTRACT_CHECKS) note(name, tag.checks[name]);
  return lines;
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((line) => `  ${line}`)
    .join('\n');
}
