import { existsSync, readdirSync, statSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderJsonResult } from '../../../../src/index.js';
import { executorFor, problemCodeOf, runTag } from '../leaf-harness.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'leaf-sqlite-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A fresh folder per test, so files from one case never meet another. */
async function folder(): Promise<string> {
  return mkdtemp(join(dir, 'case-'));
}

/** The parsed `results` of a successful run. */
async function value(body: string, fields: { target?: string; cwd?: string } = {}): Promise<unknown> {
  const run = await runTag('sqlite', { body, ...fields });
  expect(run.result).toEqual({ status: 200 });
  expect(run.channel('results').state).toBe('closed');
  return JSON.parse(run.channel('results').text);
}

describe('sqlite leaf, in memory', () => {
  it('returns a query as an array of row objects, rendered one row per line', async () => {
    const run = await runTag('sqlite', { body: "SELECT 1 AS n, 'one' AS word UNION ALL SELECT 2, 'two'" });
    const rows = [
      { n: 1, word: 'one' },
      { n: 2, word: 'two' },
    ];
    expect(run.channel('results')).toEqual({
      mimetype: 'application/json',
      state: 'closed',
      text: renderJsonResult(rows),
    });
    expect(run.channel('results').text.split('\n')).toHaveLength(2);
  });

  it('converts values to JSON: exact big integers as strings, blobs as base64, reals and nulls as they are', async () => {
    expect(
      await value(
        "SELECT 9007199254740993 AS big, -9007199254740993 AS neg, 42 AS small, 1.5 AS real, x'00ff' AS blob, NULL AS none",
      ),
    ).toEqual([{ big: '9007199254740993', neg: '-9007199254740993', small: 42, real: 1.5, blob: 'AP8=', none: null }]);
  });

  it('returns {changes, lastInsertRowid} for a statement that is not a query', async () => {
    expect(await value('CREATE TABLE t (a)')).toEqual({ changes: 0, lastInsertRowid: 0 });
  });

  it('accepts a trailing semicolon, whitespace and comments after the one statement', async () => {
    expect(await value('SELECT 7 AS seven; -- a comment\n  /* and another */ ;\n')).toEqual([{ seven: 7 }]);
  });

  it.each([
    ['SELECT 1; SELECT 2', 'SELECT 2'],
    ["SELECT 'a;b' AS x; DROP TABLE nothing", 'DROP TABLE nothing'],
    ['SELECT 1; this is not sql', 'this is not sql'],
  ])('refuses more than one statement (%j) with 400 and the rejected tail', async (body, tail) => {
    const run = await runTag('sqlite', { body });
    expect([run.result.status, problemCodeOf(run.result)]).toEqual([400, 'sqlite-multi-statement']);
    expect(run.result.problem).toMatchObject({
      detail: 'SQLite execution accepts exactly one statement, but the command contains a second statement.',
      rejectedTail: tail,
      database: ':memory:',
      stage: 'prepare',
      recovery: 'Run each SQL statement in a separate operation.',
      retryable: false,
    });
    expect(run.channel('results')).toMatchObject({ state: 'errored', text: '' });
  });

  it.each([
    ['SELEC 1', /near "SELEC": syntax error/],
    ['SELECT * FROM missing_table', /no such table: missing_table/],
    ['-- only a comment', /holds no SQL statement/],
  ])('refuses %j with 400 sqlite-invalid-statement naming the database', async (body, detail) => {
    const run = await runTag('sqlite', { body });
    expect([run.result.status, problemCodeOf(run.result)]).toEqual([400, 'sqlite-invalid-statement']);
    expect(run.result.problem?.detail).toMatch(/^SQLite could not prepare the statement: /);
    expect(run.result.problem?.detail).toMatch(detail);
    expect(run.result.problem).toMatchObject({
      database: ':memory:',
      stage: 'prepare',
      recovery: 'Correct the SQL statement.',
      retryable: false,
    });
  });

  it('an error while the statement runs is 500 sqlite-error', async () => {
    const run = await runTag('sqlite', { body: "SELECT json_extract('not json', '$.a')" });
    expect([run.result.status, problemCodeOf(run.result)]).toEqual([500, 'sqlite-error']);
    expect(run.result.problem).toMatchObject({ database: ':memory:', stage: 'execution' });
    expect(run.result.problem?.detail).toMatch(/^SQLite could not execute the statement: malformed JSON/);
  });

  it(':memory: is a fresh in-memory database too, and no file of that name is made', async () => {
    const cwd = await folder();
    expect(await value('CREATE TABLE t (a)', { target: ':memory:', cwd })).toEqual({ changes: 0, lastInsertRowid: 0 });
    expect(readdirSync(cwd)).toEqual([]);
  });

  it('is pure in memory and host on a file', async () => {
    const executor = await executorFor('sqlite');
    expect([executor.effect(null), executor.effect(':memory:'), executor.effect('data.db')]).toEqual([
      'pure',
      'pure',
      'host',
    ]);
  });

  it('is available, reporting the SQLite version', async () => {
    expect(await (await executorFor('sqlite')).probe()).toMatchObject({
      available: true,
      detail: expect.stringMatching(/^SQLite 3\.\d+\.\d+ \(sql\.js\)$/),
    });
  });
});

describe('sqlite leaf, on a file', () => {
  it('creates the file when a statement changes it and keeps changes across runs', async () => {
    const cwd = await folder();
    await value('CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT UNIQUE)', { target: 'notes.db', cwd });
    expect(existsSync(join(cwd, 'notes.db'))).toBe(true);
    expect(await value("INSERT INTO notes (text) VALUES ('a'), ('b')", { target: 'notes.db', cwd })).toEqual({
      changes: 2,
      lastInsertRowid: 2,
    });
    expect(await value("INSERT INTO notes (text) VALUES ('c') RETURNING id", { target: 'notes.db', cwd })).toEqual([
      { id: 3 },
    ]);
    expect(await value('SELECT text FROM notes ORDER BY id', { target: join(cwd, 'notes.db') })).toEqual([
      { text: 'a' },
      { text: 'b' },
      { text: 'c' },
    ]);
  });

  it('does not create a file for a statement that changes nothing', async () => {
    const cwd = await folder();
    expect(await value('SELECT 1 AS one', { target: 'never.db', cwd })).toEqual([{ one: 1 }]);
    expect(readdirSync(cwd)).toEqual([]);
  });

  it('does not rewrite a file the statement only read, and replaces it (new inode, same mode) when it changed', async () => {
    const cwd = await folder();
    await value('CREATE TABLE t (a)', { target: 'db', cwd });
    await chmod(join(cwd, 'db'), 0o600);
    const first = statSync(join(cwd, 'db')).ino;
    await value('SELECT * FROM t', { target: 'db', cwd });
    expect(statSync(join(cwd, 'db')).ino).toBe(first);
    await value('INSERT INTO t VALUES (1)', { target: 'db', cwd });
    const after = statSync(join(cwd, 'db'));
    expect(after.ino).not.toBe(first);
    expect(after.mode & 0o777).toBe(0o600);
    expect(readdirSync(cwd)).toEqual(['db']);
  });

  it('a user_version change counts as a change', async () => {
    const cwd = await folder();
    await value('PRAGMA user_version = 7', { target: 'v.db', cwd });
    expect(await value('PRAGMA user_version', { target: 'v.db', cwd })).toEqual([{ user_version: 7 }]);
  });

  it('a failing statement leaves the file as it was', async () => {
    const cwd = await folder();
    await value('CREATE TABLE u (a UNIQUE)', { target: 'u.db', cwd });
    await value('INSERT INTO u VALUES (1)', { target: 'u.db', cwd });
    const before = statSync(join(cwd, 'u.db')).ino;
    const run = await runTag('sqlite', { body: 'INSERT INTO u VALUES (2), (1)', target: 'u.db', cwd });
    expect([run.result.status, problemCodeOf(run.result)]).toEqual([500, 'sqlite-error']);
    expect(run.result.problem?.detail).toMatch(/UNIQUE constraint failed: u\.a$/);
    expect(run.result.problem?.database).toBe(join(cwd, 'u.db'));
    expect(statSync(join(cwd, 'u.db')).ino).toBe(before);
    expect(await value('SELECT a FROM u', { target: 'u.db', cwd })).toEqual([{ a: 1 }]);
  });

  it('a file that is not a database is 500 sqlite-open-failed naming it', async () => {
    const cwd = await folder();
    const path = join(cwd, 'text.db');
    await writeFile(path, 'this is plainly not a database, just some text that is long enough');
    const run = await runTag('sqlite', { body: 'SELECT 1', target: 'text.db', cwd });
    expect([run.result.status, problemCodeOf(run.result)]).toEqual([500, 'sqlite-open-failed']);
    expect(run.result.problem).toMatchObject({
      database: path,
      detail: expect.stringMatching(new RegExp(`^SQLite could not open '${path}': .*not a database`)),
      stage: 'open',
      recovery: 'Use an accessible SQLite database target.',
    });
  });

  it('a target it cannot read is 500 sqlite-open-failed', async () => {
    const cwd = await folder();
    await mkdir(join(cwd, 'dir.db'));
    const run = await runTag('sqlite', { body: 'SELECT 1', target: 'dir.db', cwd });
    expect([run.result.status, problemCodeOf(run.result)]).toEqual([500, 'sqlite-open-failed']);
    expect(run.result.problem).toMatchObject({ database: join(cwd, 'dir.db'), stage: 'open' });
    expect(run.result.problem?.detail).toMatch(/EISDIR/);
  });

  it('three concurrent writes to one file through one host all persist', async () => {
    const cwd = await folder();
    await value('CREATE TABLE t (who TEXT)', { target: 'shared.db', cwd });
    // Each INSERT spends a while counting before it writes, so both runs hold a copy of the
    // file at once: without serialized commits the second write-back drops the first row.
    const slowInsert = (who: string) =>
      `INSERT INTO t SELECT '${who}' WHERE (WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 300000) SELECT count(*) FROM c) > 0`;
    const runs = await Promise.all(
      ['a', 'b', 'c'].map((who) => runTag('sqlite', { body: slowInsert(who), target: 'shared.db', cwd })),
    );
    for (const run of runs) expect(run.result).toEqual({ status: 200 });
    expect(await value('SELECT who FROM t ORDER BY who', { target: 'shared.db', cwd })).toEqual([
      { who: 'a' },
      { who: 'b' },
      { who: 'c' },
    ]);
    expect(readdirSync(cwd)).toEqual(['shared.db']);
  });

  it('a pre-aborted run is 499 and creates no file', async () => {
    const cwd = await folder();
    const controller = new AbortController();
    controller.abort();
    const run = await runTag('sqlite', {
      body: 'CREATE TABLE t (a)',
      target: 'never.db',
      cwd,
      signal: controller.signal,
    });
    expect([run.result.status, problemCodeOf(run.result)]).toEqual([499, 'cancelled']);
    expect(run.result.problem).toMatchObject({
      database: join(cwd, 'never.db'),
      detail: 'SQLite execution was cancelled.',
      stage: 'execution',
      retryable: false,
    });
    expect(run.channel('results').state).toBe('errored');
    expect(readdirSync(cwd)).toEqual([]);
  });
});
