import { statSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RuntimeInvocation } from '../../contracts/invocation.js';

/** The target and cwd `run()` receives, or why the authored target cannot be realized. */
export type RealizedTarget = { ok: true; target: string | null; cwd: string | null } | { ok: false; detail: string };

/** A URI scheme of two or more characters (one letter would be a Windows drive). */
const SCHEME = /^([A-Za-z][A-Za-z0-9+.-]+):/;

/**
 * Realizes an authored target by its declared kind (§executor-invocation): a `literal` is
 * kept whole; a `path` or `resource` accepts a local path or a `file://` URL (passed on as a
 * path); with `directory: "cwd"` a target that is a local directory becomes `cwd` and the
 * target is dropped. A `script` is realized like a `path`, except that a directory is refused.
 * Other schemes are refused: resolving a data-scheme `resource` through READ belongs to the
 * embedding service, which hands the host a local path instead.
 */
export function realizeTarget(
  tag: string,
  invocation: RuntimeInvocation,
  target: string | null,
  cwd: string | null,
): RealizedTarget {
  const decl = invocation.target;
  if (target === null || target === '' || decl === undefined) return { ok: true, target: null, cwd };
  if (decl.kind === 'literal') return { ok: true, target, cwd };
  let path = target;
  const scheme = SCHEME.exec(target)?.[1]?.toLowerCase();
  if (scheme === 'file') {
    try {
      path = fileURLToPath(target);
    } catch (error) {
      return {
        ok: false,
        detail: `${tag} could not read ${JSON.stringify(target)} as a file:// URL: ${(error as Error).message}`,
      };
    }
  } else if (scheme !== undefined) {
    return {
      ok: false,
      detail: `${tag} takes a local or file:// path as its target (${decl.kind}); received ${JSON.stringify(target)}`,
    };
  }
  const local = isAbsolute(path) ? path : resolve(cwd ?? process.cwd(), path);
  if (decl.directory === 'cwd' && isDirectory(local)) return { ok: true, target: null, cwd: local };
  // A script is a program file: never a command line, never a directory (1.x common 1.21).
  if (decl.kind === 'script' && isDirectory(local))
    return { ok: false, detail: `${tag} runs a script file as its target; ${JSON.stringify(target)} is a directory` };
  return { ok: true, target: path, cwd };
}

/** Whether `path` is an existing directory (a symlink to one counts). */
export function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
