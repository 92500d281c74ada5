/**
 * The verdict of a tag's example, from how its first run ended (`out.outcome`), never from the
 * Problem's wording: `ok` passed; a Problem the leaf itself answered (`failed`, or a 499 it
 * minted unasked) is the leaf working as designed where the example's context is missing — a
 * `problem`, with what the example seems to need, or `not run` when its file target is missing;
 * anything the host had to step in for (a deadline, a refusal, a leaf or host fault) fails.
 */
import type { RegistryEntry } from '../contracts/registry.js';
import type { OutcomeClass } from '../model/outcome-class.js';
import type { TagCheck } from './check-report.js';
import { exampleNeeds, missingTarget } from './example-needs.js';
import type { Example, MeasuredRun } from './measure-run.js';

/** Outcomes that are the leaf's own answer: check never aborts the first run, so a 499 there is the leaf's. */
const OWN_ANSWERS: ReadonlySet<OutcomeClass> = new Set(['ok', 'failed', 'cancelled']);

/** True when the run ended in the leaf's own answer (success or its own Problem): a run whose answer can be compared. */
export function answered(run: MeasuredRun): boolean {
  return OWN_ANSWERS.has(run.outcome.outcome);
}

/** The example part of a tag's report, judged from its first run in `cwd`. */
export function judgeExample(
  entry: RegistryEntry,
  example: Example,
  first: MeasuredRun,
  cwd: string,
): TagCheck['example'] {
  const { outcome } = first;
  const { status, problem } = outcome.result;
  const judged = {
    body: example.body,
    target: example.target,
    status,
    problem: problem?.type ?? null,
    detail: problem?.detail ?? null,
    ms: first.figures.wallMs,
    outcome: outcome.outcome,
    needs: null,
  };
  if (outcome.outcome === 'ok') return { verdict: 'pass', ...judged };
  if (!answered(first)) return { verdict: 'fail', ...judged };
  const missing = missingTarget(entry, example.target, cwd);
  if (missing !== undefined)
    return {
      verdict: 'skip',
      ...judged,
      detail: `not run: needs ${example.target} (${missing}): ${problem?.detail ?? `status ${status}`}`,
    };
  return { verdict: 'problem', ...judged, needs: exampleNeeds(entry, example, cwd) };
}

/** The warning of a tag whose example ran with a Problem of its own. */
export function problemWarning(example: TagCheck['example']): string {
  return `ran with a Problem of its own: ${example.status} ${example.problem ?? '(no Problem type)'}; the example seems to need ${example.needs} — give check a cwd that has it (--cwd <dir>)`;
}
