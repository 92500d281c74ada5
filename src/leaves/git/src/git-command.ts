import { isPlurnkExecsError, tokenizeArgv } from '@plurnk/plurnk-execs';

/** A body read as git arguments, or why it is not one git command and how to fix it. */
export type GitCommand = { ok: true; words: string[] } | { ok: false; reason: string; recovery: string };

const ONE_COMMAND =
  'Give the arguments of one git command without the leading git, e.g. log --oneline -5. ' +
  'Quote arguments that hold shell characters; run pipelines and redirections with the sh tag.';
const QUOTING = 'Fix the quoting of the arguments: close every quote and do not end them with a backslash.';

/**
 * Reads an EXEC body as the arguments of one git command (§executor-subprocess). The body is
 * split POSIX-style by `tokenizeArgv` — nothing is expanded — so shell syntax would reach git
 * as literal words; it is refused instead, as are a leading `git`, an empty body and quoting
 * that does not close. Never throws.
 */
export function readGitCommand(body: string): GitCommand {
  const line = body.trim();
  const syntax = findShellSyntax(line);
  if (syntax !== undefined) {
    const reason = `git runs one command without a shell; found ${describe(syntax.text)} at offset ${syntax.offset} in ${JSON.stringify(line)}`;
    return { ok: false, reason, recovery: ONE_COMMAND };
  }
  let words: string[];
  try {
    words = tokenizeArgv(line);
  } catch (error) {
    if (!isPlurnkExecsError(error, 'invalid-command')) throw error;
    return { ok: false, reason: error.message, recovery: QUOTING };
  }
  if (words.length === 0) return { ok: false, reason: 'the body holds no git arguments', recovery: ONE_COMMAND };
  if (words[0] === 'git') {
    return {
      ok: false,
      reason: `the body starts with "git"; give only its arguments (received ${JSON.stringify(line)})`,
      recovery: ONE_COMMAND,
    };
  }
  return { ok: true, words };
}

/** Operators a shell would act on, longest first so `&&` is reported rather than `&`. */
const OPERATORS = ['&&', '||', '$(', ';', '|', '&', '>', '<', '`', '\n'] as const;
/** Inside double quotes a shell still substitutes commands. */
const IN_DOUBLE_QUOTES = new Set(['$(', '`']);

/**
 * The first shell operator in `line` outside single quotes (and, for operators a shell ignores
 * in double quotes, outside those too), with its offset. Quoting follows `tokenizeArgv`.
 */
export function findShellSyntax(line: string): { text: string; offset: number } | undefined {
  let quote: "'" | '"' | null = null;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (quote === "'") {
      if (ch === "'") quote = null;
      continue;
    }
    if (ch === '\\') {
      i += 1; // an escaped character is literal, inside double quotes or out
      continue;
    }
    if (quote === '"' && ch === '"') {
      quote = null;
      continue;
    }
    if (quote === null && (ch === "'" || ch === '"')) {
      quote = ch;
      continue;
    }
    const op = OPERATORS.find((candidate) => line.startsWith(candidate, i));
    if (op !== undefined && (quote === null || IN_DOUBLE_QUOTES.has(op))) return { text: op, offset: i };
  }
  return undefined;
}

function describe(op: string): string {
  return op === '\n' ? 'a line break (a second command)' : JSON.stringify(op);
}
