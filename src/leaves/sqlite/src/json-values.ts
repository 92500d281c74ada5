import type { Database, Statement } from 'sql.js';
import type { JsonValue } from '@plurnk/plurnk-execs';

/** One SQLite value as JSON-safe data. sql.js hands back number, string, Uint8Array, null or BigInt. */
export type CellValue = number | string | null;

/**
 * A SQLite value as JSON: an INTEGER read as BigInt stays a number while it is a safe
 * integer and becomes its decimal string beyond (JSON numbers lose digits past 2^53); a BLOB
 * becomes base64; REAL, TEXT and NULL pass through.
 */
export function toJsonValue(value: unknown): CellValue {
  if (typeof value === 'bigint') {
    return value >= BigInt(Number.MIN_SAFE_INTEGER) && value <= BigInt(Number.MAX_SAFE_INTEGER)
      ? Number(value)
      : value.toString();
  }
  if (value instanceof Uint8Array)
    return Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('base64');
  if (typeof value === 'number' || typeof value === 'string' || value === null) return value;
  return String(value);
}

/** sql.js's `get` takes a config whose `useBigInt` reads INTEGER columns exactly; its typings omit it. */
type ExactGet = (params: null, config: { useBigInt: boolean }) => unknown[];

/** Steps `statement` to the end, one object per row keyed by column name (a later duplicate name wins). */
export function readRows(statement: Statement): Record<string, JsonValue>[] {
  const columns = statement.getColumnNames();
  const get = statement.get.bind(statement) as unknown as ExactGet;
  const rows: Record<string, JsonValue>[] = [];
  while (statement.step()) {
    const values = get(null, { useBigInt: true });
    const row: Record<string, JsonValue> = {};
    columns.forEach((column, i) => {
      row[column] = toJsonValue(values[i]);
    });
    rows.push(row);
  }
  return rows;
}

/** `last_insert_rowid()` of this connection, exact. */
export function lastInsertRowid(db: Database): CellValue {
  const statement = db.prepare('SELECT last_insert_rowid()');
  try {
    statement.step();
    return toJsonValue((statement.get.bind(statement) as unknown as ExactGet)(null, { useBigInt: true })[0]);
  } finally {
    statement.free();
  }
}
