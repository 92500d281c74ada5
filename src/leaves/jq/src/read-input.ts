import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { ErrorDetail, Results } from '@plurnk/plurnk-execs';
import type { ExecResult } from '@plurnk/plurnk-execs';

/** The input text of a run, or the failure that says why the target could not be read. */
export type InputRead = { ok: true; text: string } | { ok: false; result: ExecResult };

/** Status per errno: a missing file is the author's 404, a directory their 400. */
const STATUS: Readonly<Record<string, number>> = { ENOENT: 404, ENOTDIR: 404, EISDIR: 400, EACCES: 403, EPERM: 403 };

/**
 * Reads the jq input named by `target`, relative to `cwd` (the process's own when null), as
 * UTF-8 text under `signal`. A read that fails is a `jq-read-failed` Problem naming the target
 * and the path it resolved to; a read aborted by `signal` is 499 `cancelled`.
 */
export async function readInput(
  owner: string,
  target: string,
  cwd: string | null,
  signal: AbortSignal,
  limit: number,
): Promise<InputRead> {
  const path = resolve(cwd ?? process.cwd(), target);
  try {
    return { ok: true, text: await readFile(path, { encoding: 'utf8', signal }) };
  } catch (error) {
    if (signal.aborted)
      return {
        ok: false,
        result: Results.failure(
          owner,
          'cancelled',
          499,
          'jq execution was cancelled.',
          {},
          {
            stage: 'execution',
            retryable: false,
          },
        ),
      };
    const code = (error as NodeJS.ErrnoException).code ?? 'EIO';
    const message = ErrorDetail.preview(
      `cannot read the jq input ${target} (${path}): ${(error as Error).message}`,
      limit,
    );
    return {
      ok: false,
      result: Results.failure(
        owner,
        'jq-read-failed',
        STATUS[code] ?? 500,
        message,
        {},
        {
          path,
          stage: 'read',
          recovery: 'Give a target that names a readable JSON file, relative to the working directory or absolute.',
          retryable: false,
        },
      ),
    };
  }
}
