import { randomUUID } from 'node:crypto';
import { chmod, open, realpath, rename, rm, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/** A database file as read: its bytes, or null when it does not exist yet, and which version they are. */
export interface DatabaseFile {
  /** The path written back to (a symlink is followed to the file it names). */
  path: string;
  bytes: Uint8Array | null;
  /** Permission bits to give a replacement file (those of the existing one). */
  mode: number | undefined;
  /** The identity of what was read (null: no file), compared again before writing back. */
  version: string | null;
}

/** Reads the database at `path` whole; a missing file is a new, empty database. */
export async function readDatabase(path: string, signal: AbortSignal): Promise<DatabaseFile> {
  let real: string;
  try {
    real = await realpath(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT')
      return { path, bytes: null, mode: undefined, version: null };
    throw error;
  }
  // Bytes and identity from one open file, so a replacement between the two cannot mix them.
  const handle = await open(real, 'r');
  try {
    const info = await handle.stat({ bigint: true });
    const bytes = await handle.readFile({ signal });
    return { path: real, bytes, mode: Number(info.mode & 0o7777n), version: versionOf(info) };
  } finally {
    await handle.close();
  }
}

/** What `commitDatabase` did: wrote the bytes, or found the file changed since it was read. */
export type Commit = 'written' | 'changed';

/**
 * Writes `bytes` back to `file.path` only if the file is still the version that was read.
 *
 * Why this shape: runs of the sqlite tag execute in different worker threads (and possibly
 * in different host processes), each on its own in-memory copy of the file. Holding a lock
 * across read → execute → write would serialize them, but a run's statement is synchronous
 * user SQL of unbounded length, and a thread the host terminates mid-statement never reaches
 * its `finally` — its lock would outlive it and block every later run of that file, with no
 * way to tell a long statement from a dead one. So the statement runs unlocked, and only the
 * commit is exclusive: under a lock file (created with `open(…, 'wx')`, held for one stat and
 * one rename, never across user code), the file's identity is compared with the one read; if
 * another writer replaced it meanwhile the caller re-reads and re-runs the statement on the
 * new contents (the discarded run was never observable). Because the lock is held for
 * milliseconds, one older than {@link LOCK_STALE_MS} can only belong to a thread that died
 * inside the commit, and is removed.
 */
export async function commitDatabase(file: DatabaseFile, bytes: Uint8Array, signal: AbortSignal): Promise<Commit> {
  const lock = `${file.path}.plurnk-lock`;
  await acquire(lock, signal);
  try {
    if ((await currentVersion(file.path)) !== file.version) return 'changed';
    await writeDatabase(file, bytes);
    return 'written';
  } finally {
    await rm(lock, { force: true });
  }
}

/** Age past which a commit lock is taken to belong to a thread that died holding it. */
export const LOCK_STALE_MS = 10_000;

/** Creates `lock` exclusively, retrying with backoff; rejects with the signal's reason when it aborts. */
async function acquire(lock: string, signal: AbortSignal): Promise<void> {
  for (let wait = 2; ; wait = Math.min(wait * 2, 50)) {
    signal.throwIfAborted();
    try {
      const handle = await open(lock, 'wx');
      await handle.close();
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    await breakIfStale(lock);
    await sleep(wait, undefined, { signal });
  }
}

async function breakIfStale(lock: string): Promise<void> {
  try {
    const info = await stat(lock);
    if (Date.now() - info.mtimeMs > LOCK_STALE_MS) await rm(lock, { force: true });
  } catch {
    // Released meanwhile.
  }
}

/** The identity of the file at `path` now, or null when there is none. */
async function currentVersion(path: string): Promise<string | null> {
  try {
    return versionOf(await stat(path, { bigint: true }));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/** Device, inode, size and change times: a rename makes a new inode, an in-place write new times. */
function versionOf(info: { dev: bigint; ino: bigint; size: bigint; mtimeNs: bigint; ctimeNs: bigint }): string {
  return `${info.dev}:${info.ino}:${info.size}:${info.mtimeNs}:${info.ctimeNs}`;
}

/**
 * Replaces the database at `file.path` with `bytes` atomically: a temporary file in the same
 * directory is written completely, then renamed over the original, so a reader sees the old
 * database or the new one and never half of either. The temporary file is removed on failure.
 */
async function writeDatabase(file: DatabaseFile, bytes: Uint8Array): Promise<void> {
  const temporary = join(dirname(file.path), `.${basename(file.path)}.${process.pid}.${randomUUID()}.tmp`);
  try {
    await writeFile(temporary, bytes);
    // writeFile's mode is filtered by the umask; the replacement keeps the original's bits exactly.
    if (file.mode !== undefined) await chmod(temporary, file.mode);
    await rename(temporary, file.path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

/** True when two exports hold the same bytes. */
export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(Buffer.from(b.buffer, b.byteOffset, b.byteLength));
}
