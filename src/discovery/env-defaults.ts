import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PlurnkExecsError } from '../contracts/errors.js';

/** One package-owned floor: a key, its default value, and the package that ships it. */
export interface EnvDefault {
  readonly key: string;
  readonly value: string;
  readonly owner: string;
}

/** The file a package ships its floors in. */
export const ENV_DEFAULTS_FILE = '.env.defaults';

// Environment names, widened by `+ . -` so that PLURNK_EXECS_<TAG> keys for every valid tag fit.
const LINE = /^([A-Za-z_][A-Za-z0-9_.+-]*)\s*=(.*)$/;

/**
 * Reads `<packageDir>/.env.defaults`; a package without one ships no floors. A file that
 * exists but cannot be read, or does not parse, fails hard naming its owner.
 */
export async function readEnvDefaults(packageDir: string, owner: string): Promise<EnvDefault[]> {
  const path = join(packageDir, ENV_DEFAULTS_FILE);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (cause) {
    const code = (cause as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return [];
    throw new PlurnkExecsError(
      'invalid-env-defaults',
      `Unreadable ${ENV_DEFAULTS_FILE} in package "${owner}": ${path} could not be read (${code ?? String(cause)}). Fix: make it a readable file, or remove it.`,
      { cause },
    );
  }
  return parseEnvDefaults(text, owner);
}

/**
 * Parses `.env.defaults` text: one `KEY=value` per line (spaces around `=` allowed), `#`
 * comment lines and blank lines ignored, CRLF accepted. The value is the rest of the line,
 * trimmed, with one pair of matching surrounding quotes removed; there are no inline comments
 * or escapes. A line of any other shape, or a key given twice, fails hard naming the owner
 * and the line.
 */
export function parseEnvDefaults(text: string, owner: string): EnvDefault[] {
  const floors: EnvDefault[] = [];
  const lineOf = new Map<string, number>();
  text.split(/\r?\n/).forEach((raw, index) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return;
    const match = LINE.exec(line);
    const number = index + 1;
    if (match === null) {
      throw new PlurnkExecsError(
        'invalid-env-defaults',
        `Invalid ${ENV_DEFAULTS_FILE} in package "${owner}", line ${number}: expected KEY=value; received ${JSON.stringify(raw)}. Fix: write KEY=value (a # starts a comment line).`,
      );
    }
    const key = match[1] as string;
    const earlier = lineOf.get(key);
    if (earlier !== undefined) {
      throw new PlurnkExecsError(
        'invalid-env-defaults',
        `Invalid ${ENV_DEFAULTS_FILE} in package "${owner}": ${key} is set on line ${earlier} and again on line ${number}. Fix: keep one.`,
      );
    }
    lineOf.set(key, number);
    floors.push(Object.freeze({ key, value: unquote((match[2] as string).trim()), owner }));
  });
  return floors;
}

function unquote(value: string): string {
  const quote = value[0];
  return value.length >= 2 && (quote === '"' || quote === "'") && value.endsWith(quote) ? value.slice(1, -1) : value;
}
