import { parseArgs, type ParseArgsConfig } from 'node:util';

/** Marks a UsageError whichever copy of this module made it (the `exec` command's bundle has its own). */
const USAGE_BRAND = Symbol.for('@plurnk/plurnk-execs.usage-error');

/** A command line a command cannot accept; the message names the flag or argument. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
    Object.defineProperty(this, USAGE_BRAND, { value: true });
  }
}

/** Whether `value` is a {@link UsageError}, from this module or the bundle's copy of it. */
export function isUsageError(value: unknown): value is UsageError {
  return typeof value === 'object' && value !== null && USAGE_BRAND in value;
}

type Options = NonNullable<ParseArgsConfig['options']>;

/**
 * Parses `argv` strictly for `command`: unknown flags, missing values and surplus or missing
 * positionals become a {@link UsageError} that names them. `--help`/`-h` is always accepted.
 */
export function parseFlags(
  command: string,
  argv: string[],
  options: Options,
  positionals: { names: string[]; required: number },
): { values: Record<string, string | boolean | undefined>; positionals: string[] } {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      options: { ...options, help: { type: 'boolean', short: 'h' } },
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    throw new UsageError(`${command}: ${describeParseError(error as Error & { code?: string })}`);
  }
  const values = parsed.values as Record<string, string | boolean | undefined>;
  const given = parsed.positionals;
  if (values.help !== true) {
    if (given.length < positionals.required) {
      throw new UsageError(`${command}: missing <${positionals.names[given.length]}>`);
    }
    if (given.length > positionals.names.length) {
      throw new UsageError(
        `${command}: unexpected argument ${JSON.stringify(given[positionals.names.length])} (quote a body that has spaces)`,
      );
    }
  }
  return { values, positionals: given };
}

/** Reads a flag value that must be a positive integer number of milliseconds. */
export function parseMs(command: string, flag: string, raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  if (!/^\d+$/.test(raw) || Number(raw) < 1) {
    throw new UsageError(
      `${command}: ${flag} must be a positive whole number of milliseconds; received ${JSON.stringify(raw)}`,
    );
  }
  return Number(raw);
}

function describeParseError(error: Error & { code?: string }): string {
  // Node names a flag as '--bogus', '-x' or '-t, --target <value>': prefer the long form.
  const flag = /(--[\w-]+)/.exec(error.message)?.[1] ?? /'(-[^' ,]+)/.exec(error.message)?.[1];
  switch (error.code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION':
      return `unknown flag ${flag ?? error.message}`;
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE':
      return flag
        ? `flag ${flag} ${/argument missing/.test(error.message) ? 'needs a value' : 'takes no value'}`
        : error.message;
    default:
      return error.message;
  }
}

/** The `--isolation` flag: `process` (the default, as `createHost`'s) or `thread`; anything else is a UsageError naming it. */
export function parseIsolation(command: string, value: string | undefined): 'thread' | 'process' {
  if (value === undefined || value === 'thread' || value === 'process') return value ?? 'process';
  throw new UsageError(`${command}: --isolation must be process or thread; received ${JSON.stringify(value)}`);
}
