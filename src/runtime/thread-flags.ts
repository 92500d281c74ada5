import { Worker, type WorkerOptions } from 'node:worker_threads';

/**
 * Flags of the host's own that Node refused to give a thread (ERR_WORKER_INVALID_EXEC_ARGV):
 * V8's and those that hold the whole process (`--max-old-space-size`, `--title`), which every
 * thread shares with the process anyway. Learned at the first refusal, once per process.
 */
const refused = new Set<string>();

/** Node's message for a refusal names the flags it refused: `…invalid execArgv flags: --title=x, --expose-gc`. */
const REFUSED_FLAGS = /invalid execArgv flags: (.+)$/;

/**
 * Starts a thread with every flag of the host's that Node gives a thread, and `extra` after
 * them. A thread started with `execArgv` takes no flag of its parent's but these, so the host's
 * own are given again (without Node's permission flags among them, a thread would run outside
 * the model); the ones Node refuses for a thread are left out, and hold for it all the same.
 * Throws what `new Worker` throws, a refusal Node does not name or one of `extra` among them.
 */
export function startThreadWithFlags(filename: string | URL, options: WorkerOptions, extra: readonly string[]): Worker {
  for (;;) {
    const execArgv = [...process.execArgv.filter((flag) => !refused.has(flag)), ...extra];
    try {
      return new Worker(filename, { ...options, execArgv });
    } catch (error) {
      const named = refusedFlags(error);
      const learned = named?.filter((flag) => !refused.has(flag) && !extra.includes(flag)) ?? [];
      if (learned.length === 0) throw error;
      for (const flag of learned) refused.add(flag);
    }
  }
}

/** The flags a refusal names, or undefined for any other error. */
function refusedFlags(error: unknown): string[] | undefined {
  if ((error as { code?: unknown } | null)?.code !== 'ERR_WORKER_INVALID_EXEC_ARGV') return undefined;
  const listed = REFUSED_FLAGS.exec((error as Error).message)?.[1];
  return listed?.split(', ');
}
