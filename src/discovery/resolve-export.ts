import { statSync } from 'node:fs';
import { join, normalize, sep } from 'node:path';
import { pathToFileURL } from 'node:url';

// Conditions this loader honours, as Node does for an ESM import; `types` and others are skipped.
const CONDITIONS = new Set(['node', 'import', 'default']);

/**
 * Resolves an export subpath (`.` or `./runtimes`) of a package through its own `exports` map
 * the way Node's ESM loader would: exact subpaths, then `*` patterns (longest prefix first);
 * condition objects in key order honouring `node`, `import` and `default`; arrays as
 * fallbacks; `null` as "not exported". Without an `exports` map, `.` is `main` (or
 * `index.js`) and any other subpath is the file it names. Returns the file: URL, or undefined
 * when the package does not export that subpath. Targets that escape the package are refused.
 */
export function resolveExport(
  packageDir: string,
  packageJson: Readonly<Record<string, unknown>>,
  subpath: string,
): string | undefined {
  const exportsField = packageJson.exports;
  let target: string | undefined;
  if (exportsField === undefined) {
    target = subpath === '.' ? resolveLegacyMain(packageDir, packageJson.main) : subpath;
  } else {
    const map = toSubpathMap(exportsField);
    target = map === undefined ? undefined : matchSubpath(map, subpath);
  }
  if (target === undefined || !isInside(target)) return undefined;
  return pathToFileURL(join(packageDir, target)).href;
}

/** The exports field as a subpath map; undefined when it mixes subpaths with conditions. */
function toSubpathMap(exportsField: unknown): Record<string, unknown> | undefined {
  if (typeof exportsField === 'string' || Array.isArray(exportsField)) return { '.': exportsField };
  if (typeof exportsField !== 'object' || exportsField === null) return undefined;
  const keys = Object.keys(exportsField);
  const dotted = keys.filter((key) => key.startsWith('.')).length;
  if (dotted === 0) return { '.': exportsField };
  return dotted === keys.length ? (exportsField as Record<string, unknown>) : undefined;
}

function matchSubpath(map: Record<string, unknown>, subpath: string): string | undefined {
  if (Object.hasOwn(map, subpath)) return resolveTarget(map[subpath], undefined);
  const patterns = Object.keys(map)
    .filter((key) => key.split('*').length === 2)
    .sort((a, b) => b.indexOf('*') - a.indexOf('*'));
  for (const key of patterns) {
    const [prefix = '', suffix = ''] = key.split('*');
    if (subpath.length >= key.length && subpath.startsWith(prefix) && subpath.endsWith(suffix)) {
      return resolveTarget(map[key], subpath.slice(prefix.length, subpath.length - suffix.length));
    }
  }
  return undefined;
}

function resolveTarget(target: unknown, star: string | undefined): string | undefined {
  if (typeof target === 'string') {
    if (!target.startsWith('./')) return undefined;
    return star === undefined ? target : target.split('*').join(star);
  }
  if (Array.isArray(target)) {
    for (const option of target) {
      const resolved = resolveTarget(option, star);
      if (resolved !== undefined) return resolved;
    }
    return undefined;
  }
  if (typeof target !== 'object' || target === null) return undefined;
  for (const [condition, value] of Object.entries(target)) {
    if (!CONDITIONS.has(condition)) continue;
    const resolved = resolveTarget(value, star);
    if (resolved !== undefined) return resolved;
  }
  return undefined;
}

/** Node's legacy `main` lookup: the file, `.js` added, `/index.js`, then the package's `index.js`. */
function resolveLegacyMain(packageDir: string, main: unknown): string {
  if (typeof main === 'string' && main !== '') {
    for (const candidate of [main, `${main}.js`, join(main, 'index.js')]) {
      if (isFile(join(packageDir, candidate))) return candidate;
    }
  }
  return 'index.js';
}

/** True when a relative target stays inside the package (no `..` escape, no node_modules hop). */
function isInside(target: string): boolean {
  const clean = normalize(target);
  return !clean.startsWith('..') && !clean.startsWith(sep) && !clean.split(sep).includes('node_modules');
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}
