import { resolve } from 'node:path';
import { BaseExecutor, ErrorDetail, PlurnkExecsError, renderJsonResult, Results } from '@plurnk/plurnk-execs';
import type {
  ChannelDecl,
  Effect,
  ExecArgs,
  ExecResult,
  ExecutorOptions,
  JsonValue,
  RuntimeAvailability,
} from '@plurnk/plurnk-execs';
import type { Database } from 'sql.js';
import { commitDatabase, readDatabase, sameBytes, type Commit, type DatabaseFile } from './database-file.js';
import { lastInsertRowid, readRows } from './json-values.js';
import { countStatements, messageOf } from './one-statement.js';
import { sqlEngine } from './sql-engine.js';

const CHANNELS: Readonly<Record<string, ChannelDecl>> = Object.freeze({
  results: Object.freeze({ mimetype: 'application/json' }),
});

const MEMORY = ':memory:';

/** The owner of this leaf's Problems, as 1.x names it. */
const OWNER = 'executor:sqlite';

/** A BigInt reaches the results as its decimal string, as 1.x renders it. */
const bigintAsString = (_key: string, value: unknown): unknown =>
  typeof value === 'bigint' ? value.toString() : value;

/**
 * The `sqlite` tag: one SQL statement per run through sql.js (SQLite compiled to WebAssembly).
 * Without a target (or with `:memory:`) the statement runs on a fresh in-memory database and
 * the effect is `pure`; with a file path (relative to cwd) the file is read whole, and written
 * back atomically only when the statement changed it and no other run replaced the file
 * meanwhile (else the statement runs again on the new file) — effect `host`. A query returns its rows
 * as objects; anything else returns `{changes, lastInsertRowid}`; both go to `results` through
 * `renderJsonResult`. Every Problem names the database.
 */
export class SqliteExecutor extends BaseExecutor {
  constructor(options: ExecutorOptions) {
    super(options);
    if (options.runtime !== 'sqlite') {
      throw new PlurnkExecsError(
        'invalid-declaration',
        `@plurnk/plurnk-execs-sqlite claims only runtime "sqlite"; it was constructed for ${JSON.stringify(options.runtime)}`,
      );
    }
  }

  get channels(): Readonly<Record<string, ChannelDecl>> {
    return CHANNELS;
  }

  override effect(target: string | null): Effect {
    return isMemory(target) ? 'pure' : 'host';
  }

  /** Initialises sql.js (which also warms it for the first run) and reports SQLite's version. */
  override async probe(_signal?: AbortSignal): Promise<RuntimeAvailability> {
    try {
      const db = new (await sqlEngine()).Database();
      try {
        return {
          available: true,
          detail: `SQLite ${String(db.exec('SELECT sqlite_version()')[0]?.values[0]?.[0])} (sql.js)`,
        };
      } finally {
        db.close();
      }
    } catch (error) {
      return { available: false, detail: `sql.js did not initialise: ${messageOf(error)}` };
    }
  }

  async run(args: ExecArgs): Promise<ExecResult> {
    // As 1.x: `:memory:`, else the target resolved against cwd; every Problem names it.
    const database = isMemory(args.target) ? MEMORY : resolve(args.cwd ?? process.cwd(), args.target!);
    const problem = (code: string, status: number, detail: string, extensions: Record<string, JsonValue> = {}) =>
      fail(args, Results.failure(OWNER, code, status, detail, {}, { database, ...extensions }));
    const cancelled = () =>
      problem('cancelled', 499, 'SQLite execution was cancelled.', { stage: 'execution', retryable: false });
    if (args.signal.aborted) return cancelled();
    const limit = ErrorDetail.resolve(OWNER);
    if (!limit.ok) return fail(args, limit.result);
    const bound = (error: unknown) => ErrorDetail.preview(messageOf(error), limit.limit);
    const openFailed = (error: unknown) =>
      problem('sqlite-open-failed', 500, `SQLite could not open '${database}': ${bound(error)}`, {
        stage: 'open',
        recovery: 'Use an accessible SQLite database target.',
      });

    const SQL = await sqlEngine();
    // A file run repeats only when another writer replaced the file while the statement ran.
    for (let attempt = 1; ; attempt++) {
      let file: DatabaseFile | undefined;
      if (database !== MEMORY) {
        try {
          file = await readDatabase(database, args.signal);
        } catch (error) {
          return args.signal.aborted ? cancelled() : openFailed(error);
        }
      }
      if (args.signal.aborted) return cancelled();

      const db: Database = new SQL.Database(file?.bytes ?? null);
      let output: unknown;
      let after: Uint8Array | undefined;
      try {
        if (file?.bytes) {
          // A file that is not a database fails here, as the target's fault, not the statement's.
          try {
            db.exec('PRAGMA schema_version');
          } catch (error) {
            return openFailed(error);
          }
        }
        const count = countStatements(db, args.body);
        if (count.kind === 'invalid' || count.kind === 'none') {
          const why = count.kind === 'invalid' ? bound(count.message) : 'the body holds no SQL statement';
          return problem('sqlite-invalid-statement', 400, `SQLite could not prepare the statement: ${why}`, {
            stage: 'prepare',
            recovery: 'Correct the SQL statement.',
            retryable: false,
          });
        }
        if (count.kind === 'many') {
          return problem(
            'sqlite-multi-statement',
            400,
            'SQLite execution accepts exactly one statement, but the command contains a second statement.',
            {
              stage: 'prepare',
              rejectedTail: ErrorDetail.preview(count.tail.trim(), limit.limit),
              recovery: 'Run each SQL statement in a separate operation.',
              retryable: false,
            },
          );
        }

        const before = file ? db.export() : undefined;
        const statement = db.prepare(args.body);
        try {
          const rows = readRows(statement);
          output =
            statement.getColumnNames().length > 0
              ? rows
              : { changes: db.getRowsModified(), lastInsertRowid: lastInsertRowid(db) };
        } catch (error) {
          return problem('sqlite-error', 500, `SQLite could not execute the statement: ${bound(error)}`, {
            stage: 'execution',
          });
        } finally {
          statement.free();
        }
        if (before) {
          const exported = db.export();
          if (!sameBytes(before, exported)) after = exported;
        }
      } finally {
        db.close();
      }

      if (file && after) {
        if (args.signal.aborted) return cancelled();
        let commit: Commit;
        try {
          commit = await commitDatabase(file, after, args.signal);
        } catch (error) {
          if (args.signal.aborted) return cancelled();
          return problem(
            'sqlite-error',
            500,
            `SQLite executed the statement but could not write '${database}': ${bound(error)}`,
            {
              stage: 'write',
            },
          );
        }
        if (commit === 'changed') {
          if (attempt < MAX_ATTEMPTS) continue;
          return problem(
            'sqlite-error',
            500,
            `SQLite could not write '${database}': another writer replaced it during each of ${MAX_ATTEMPTS} attempts`,
            { stage: 'write', recovery: 'Retry when the database is less busy.', retryable: true },
          );
        }
      }
      args.write('results', renderJsonResult(output, bigintAsString));
      args.setState('results', 'closed');
      return Results.success(200);
    }
  }
}

/** How many times a file run re-reads and re-runs when other writers keep replacing the file. */
const MAX_ATTEMPTS = 100;

/** No target, an empty one and `:memory:` all mean a fresh in-memory database. */
function isMemory(target: string | null): boolean {
  return target === null || target === '' || target === MEMORY;
}

function fail(args: ExecArgs, result: ExecResult): ExecResult {
  args.setState('results', 'errored');
  return result;
}
