import type { LoadStage, WorkerBoot } from '../contracts/protocol.js';
import { serializeError, type SerializedError } from '../contracts/serialized-error.js';
import type { BaseExecutor } from '../author/base-executor.js';
import { linkFramework } from './framework-link.js';

/** The leaf's executor, or why it could not be had; loading never rejects. */
export type LoadedExecutor =
  { ok: true; executor: BaseExecutor } | { ok: false; stage: LoadStage; error: SerializedError };

/**
 * Imports the leaf package's default export and constructs the one executor of this thread
 * with `{ runtime, glyph }`. A throw at import or in the constructor, or a default export that
 * is not an executor class, comes back as a serialized error with the stage it happened in, so every task can report it
 * (piscina would otherwise leave later tasks hanging after a failed import).
 */
export async function loadExecutor(boot: WorkerBoot): Promise<LoadedExecutor> {
  let Executor: unknown;
  try {
    await linkFramework(boot.entryUrl);
    Executor = ((await import(boot.entryUrl)) as { default?: unknown }).default;
  } catch (error) {
    return { ok: false, stage: 'import', error: serializeError(error) };
  }
  if (typeof Executor !== 'function') {
    return failure(
      'import',
      `${boot.entryUrl} has no default export that is an executor class (received ${typeof Executor})`,
    );
  }
  try {
    const executor = new (Executor as new (options: { runtime: string; glyph: string }) => BaseExecutor)({
      runtime: boot.tag,
      glyph: boot.glyph,
    });
    if (typeof executor?.run !== 'function')
      return failure(
        'construct',
        `the default export of ${boot.entryUrl} constructed an object without a run() method`,
      );
    return { ok: true, executor };
  } catch (error) {
    return { ok: false, stage: 'construct', error: serializeError(error) };
  }
}

function failure(stage: LoadStage, message: string): LoadedExecutor {
  return { ok: false, stage, error: { name: 'TypeError', message } };
}
