import { randomUUID } from 'node:crypto';
import { chmod, readFile, realpath, rename, rm, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/** A database file as read: its bytes, or null when it does not exist yet. */
export interface DatabaseFile {
  /** The path written back to (a symlink is followed to the file it names). */
  path: string;
  bytes: Uint8Array | null;
  /** Permission bits to give a replacement file (those of the existing one). */
  mode: number | undefined;
}

/** Reads the database at `path` whole; a missing file is a new, empty database. */
export async function readDatabase(path: string, signal: AbortSignal): Promise<DatabaseFile> {
  let real: string;
  try {
    real = await realpath(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { path, bytes: null, mode: undefined };
    throw error;
  }
  const [bytes, info] = await Promise.all([readFile(real, { signal }), stat(real)]);
  return { path: real, bytes, mode: info.mode & 0o7777 };
}

/**
 * Replaces the database at `file.path` with `bytes` atomically: a temporary file in the same
 * directory is written completely, then renamed over the original, so a reader sees the old
 * database or the new one and never half of either. The temporary file is removed on failure.
 */
export async function writeDatabase(file: DatabaseFile, bytes: Uint8Array): Promise<void> {
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
