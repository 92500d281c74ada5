import { resolve } from 'node:path';
import { BaseExecutor, ErrorDetail, PlurnkExecsError, renderJsonResult, Results } from '@plurnk/plurnk-execs';
import type {
  ChannelDecl,
  Effect,
  ExecArgs,
  ExecResult,
  ExecutorOptions,
  RuntimeAvailability,
} from '@plurnk/plurnk-execs';
import type { Database } from 'sql.js';
import { readDatabase, sameBytes, writeDatabase, type DatabaseFile } from './database-file.js';
import { lastInsertRowid, readRows } from './json-values.js';
import { countStatements, messageOf } from './one-statement.js';
import { sqlEngine } from './sql-engine.js';

const CHANNELS: Readonly<Record<string, ChannelDecl>> = Object.freeze({
  results: Object.freeze({ mimetype: 'application/json' }),
});

const MEMORY = ':memory:';

/**
 * The `sqlite` tag: one SQL statement per run through sql.js (SQLite compiled to WebAssembly).
 * Without a target (or with `:memory:`) the statement runs on a fresh in-memory database and
 * the effect is `pure`; with a file path (relative to cwd) the file is read whole, and written
 * back atomically only when the statement changed it — effect `host`. A query returns its rows
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
    const name = isMemory(args.target) ? MEMORY : args.target!;
    const problem = (code: string, status: number, detail: string, extensions: Record<string, string> = {}) =>
      fail(
        args,
        Results.failure(
          this.runtime,
          code,
          status,
          `${detail} (database ${name})`,
          {},
          { database: name, ...extensions },
        ),
      );
    if (args.signal.aborted) return problem('cancelled', 499, 'cancelled before the statement ran; nothing was opened');
    const limit = ErrorDetail.resolve(this.runtime);
    if (!limit.ok) return fail(args, limit.result);
    const bound = (text: string) => ErrorDetail.preview(text, limit.limit);

    const SQL = await sqlEngine();
    let file: DatabaseFile | undefined;
    if (name !== MEMORY) {
      try {
        file = await readDatabase(resolve(args.cwd ?? process.cwd(), name), args.signal);
      } catch (error) {
        if (args.signal.aborted) return problem('cancelled', 499, 'cancelled while reading the database');
        return problem('sqlite-error', 500, `cannot read the database file: ${bound(messageOf(error))}`);
      }
    }
    if (args.signal.aborted) return problem('cancelled', 499, 'cancelled before the statement ran');

    const db: Database = new SQL.Database(file?.bytes ?? null);
    try {
      if (file?.bytes) {
        // A file that is not a database fails here, as the server's fault, not the statement's.
        try {
          db.exec('PRAGMA schema_version');
        } catch (error) {
          return problem('sqlite-error', 500, `cannot open the database: ${bound(messageOf(error))}`);
        }
      }
      const count = countStatements(db, args.body);
      if (count.kind === 'invalid') return problem('sqlite-invalid-statement', 400, bound(count.message));
      if (count.kind === 'none') return problem('sqlite-invalid-statement', 400, 'the body holds no SQL statement');
      if (count.kind === 'many') {
        const tail = bound(count.tail.trim());
        return problem('sqlite-multi-statement', 400, `one statement per run; rejected the rest: ${tail}`, { tail });
      }

      const before = file ? db.export() : undefined;
      let output: unknown;
      const statement = db.prepare(args.body);
      try {
        const rows = readRows(statement);
        output =
          statement.getColumnNames().length > 0
            ? rows
            : { changes: db.getRowsModified(), lastInsertRowid: lastInsertRowid(db) };
      } catch (error) {
        return problem('sqlite-error', 500, bound(messageOf(error)));
      } finally {
        statement.free();
      }

      if (file && before) {
        const after = db.export();
        if (!sameBytes(before, after)) {
          if (args.signal.aborted)
            return problem('cancelled', 499, 'cancelled after the statement ran; the change was not written back');
          try {
            await writeDatabase(file, after);
          } catch (error) {
            return problem(
              'sqlite-error',
              500,
              `the statement ran but writing the database back failed: ${bound(messageOf(error))}`,
            );
          }
        }
      }
      args.write('results', renderJsonResult(output));
      args.setState('results', 'closed');
      return Results.success(200);
    } finally {
      db.close();
    }
  }
}

/** No target, an empty one and `:memory:` all mean a fresh in-memory database. */
function isMemory(target: string | null): boolean {
  return target === null || target === '' || target === MEMORY;
}

function fail(args: ExecArgs, result: ExecResult): ExecResult {
  args.setState('results', 'errored');
  return result;
}
