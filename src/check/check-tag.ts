/**
 * One tag's example through the host, run four ways, then judged: the example by how its first
 * run ended (judge-example.ts), the contract checks by the facts of all its runs
 * (contract-checks.ts), and what each run did (measure-run.ts).
 */
import type { RegistryEntry } from '../contracts/registry.js';
import type { TagCheck } from './check-report.js';
import { allSkipped, judgeContract } from './contract-checks.js';
import { answered, judgeExample } from './judge-example.js';
import { measureRun, type RunContext } from './measure-run.js';

/**
 * Runs a tag's declared example through the host and judges it. Threads serve two runs each,
 * so the second run lands in the first one's thread and the third in a fresh one: two first
 * runs say whether the answer is deterministic, and the second run then says whether state
 * survived a run — for an example that answered, with success or a Problem of its own. A last
 * run is aborted once it shows life, to see whether the leaf honours its signal within grace.
 */
export async function checkExample(
  entry: RegistryEntry,
  context: RunContext,
): Promise<Pick<TagCheck, 'example' | 'checks' | 'runs'>> {
  const declared = entry.invocation.example;
  if (declared === undefined)
    return notRun('the invocation declares a signature or an input schema, not an executable example');
  const example = { body: declared.body ?? '', target: declared.target ?? null };
  const first = await measureRun(context, entry.runtime, example, 'first');
  const judged = judgeExample(entry, example, first, context.cwd);
  if (judged.verdict === 'skip') return { example: judged, checks: allSkipped(judged.detail!), runs: [first.figures] };
  const again = answered(first) ? await measureRun(context, entry.runtime, example, 'again') : undefined;
  const fresh = again === undefined ? undefined : await measureRun(context, entry.runtime, example, 'fresh');
  const aborted = await measureRun(context, entry.runtime, example, 'aborted');
  const runs = [first, again, fresh, aborted].filter((run) => run !== undefined);
  return {
    example: judged,
    checks: judgeContract({ first, again, fresh, aborted }, context.graceMs),
    runs: runs.map((run) => run.figures),
  };
}

/** The example, checks and runs of a tag whose example could not run, and why. */
export function notRun(why: string): Pick<TagCheck, 'example' | 'checks' | 'runs'> {
  return {
    example: {
      verdict: 'skip',
      body: null,
      target: null,
      status: null,
      problem: null,
      detail: why,
      ms: null,
      outcome: null,
      needs: null,
    },
    checks: allSkipped(why),
    runs: [],
  };
}
