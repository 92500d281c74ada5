import type { Database } from 'sql.js';

/** How many statements an SQL text holds, as far as SQLite's own parser can tell. */
export type StatementCount =
  { kind: 'none' } | { kind: 'one' } | { kind: 'many'; tail: string } | { kind: 'invalid'; message: string };

/**
 * Counts the statements of `sql` with SQLite's parser (never by splitting on `;`, which
 * string literals and triggers contain). Trailing `;`, whitespace and comments are not a
 * statement. When the first statement does not prepare, its message is returned; when text
 * follows it that is not empty, that text is the rejected tail — even if it would not prepare.
 * Nothing is executed, and every statement prepared here is freed.
 */
export function countStatements(db: Database, sql: string): StatementCount {
  const statements = db.iterateStatements(sql);
  try {
    let first: ReturnType<typeof statements.next>;
    try {
      first = statements.next();
    } catch (error) {
      return { kind: 'invalid', message: messageOf(error) };
    }
    if (first.done) return { kind: 'none' };
    const tail = statements.getRemainingSQL();
    try {
      if (statements.next().done) return { kind: 'one' };
    } catch {
      // The tail does not even prepare: it is still more than one statement.
    }
    return { kind: 'many', tail };
  } finally {
    // Frees the iterator's copy of the SQL and any statement it still holds.
    (statements as unknown as { return(): void }).return();
  }
}

/** sql.js throws Errors from SQLite and plain strings from its own checks. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
