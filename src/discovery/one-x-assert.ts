import * as v from 'valibot';
import { PlurnkExecsError, type PlurnkExecsErrorCode } from '../contracts/errors.js';
import { wordIssue, type WordingRoot } from './one-x-wording.js';

/** Who a 1.x static validates for: the owner (a package name) and, when known, the runtime. */
export interface OneXOwner {
  readonly owner: string;
  readonly runtime?: string;
}

/**
 * Parses `value` with one of discovery's schemas and returns its output, or throws
 * `PlurnkExecsError(code)` whose message is 1.x's: one sentence per issue, each
 * `runtime declaration invalid: <owner> '<runtime>' <detail>` (without the runtime for a
 * declaration's own fields), unknown fields first as 1.x finds them first. `describeName`
 * words an issue on a declaration's `name` (RuntimeTag's own sentence).
 */
export function parseOneX<T>(
  schema: v.GenericSchema<T>,
  value: unknown,
  root: WordingRoot,
  who: OneXOwner,
  code: PlurnkExecsErrorCode,
  describeName?: () => string,
): T {
  const result = v.safeParse(schema, value, { abortEarly: false });
  if (result.success) return result.output;
  const sentences = result.issues
    .map((issue) => ({ issue, worded: wordIssue(issue, root) }))
    .sort((a, b) => Number(b.worded.unknownField) - Number(a.worded.unknownField))
    .map(({ issue, worded }) => {
      if (root === 'declaration' && issue.path?.[0]?.key === 'name' && describeName !== undefined)
        return describeName();
      const runtime = worded.namesRuntime && who.runtime !== undefined ? ` '${who.runtime}'` : '';
      return `runtime declaration invalid: ${who.owner}${runtime} ${worded.detail}`;
    });
  throw new PlurnkExecsError(code, [...new Set(sentences)].join('\n'), { cause: new v.ValiError(result.issues) });
}
