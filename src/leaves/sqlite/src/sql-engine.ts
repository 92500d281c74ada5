import initSqlJs from 'sql.js';
import type { SqlJsStatic } from 'sql.js';

/**
 * The thread's sql.js module, initialised on first use (45–150 ms) and reused: it is a
 * reusable engine, while every run opens and closes its own Database. A failed
 * initialisation is not cached, so the next run tries again.
 */
let engine: Promise<SqlJsStatic> | undefined;

/** The thread's sql.js module. */
export function sqlEngine(): Promise<SqlJsStatic> {
  if (engine === undefined) {
    const loading = initSqlJs();
    engine = loading;
    loading.catch(() => {
      if (engine === loading) engine = undefined;
    });
  }
  return engine;
}
