import { CommandSyntaxError } from '../contracts/errors.js';

/**
 * Splits a command line into words the POSIX way, without a shell: whitespace separates
 * words; single quotes keep everything literally; inside double quotes only `\"` and `\\`
 * escape; elsewhere a backslash escapes the next character. Nothing is expanded.
 *
 * @throws CommandSyntaxError on an unterminated quote or a trailing backslash.
 */
export function tokenizeArgv(line: string): string[] {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let i = 0;
  while (i < line.length) {
    const ch = line[i]!;
    if (ch === ' ' || ch === '\t' || ch === '\n' || ch === '\r') {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
      i += 1;
    } else if (ch === "'") {
      const end = line.indexOf("'", i + 1);
      if (end === -1)
        throw new CommandSyntaxError(`unterminated single quote at offset ${i} in ${JSON.stringify(line)}`);
      word += line.slice(i + 1, end);
      inWord = true;
      i = end + 1;
    } else if (ch === '"') {
      const [text, next] = readDoubleQuoted(line, i);
      word += text;
      inWord = true;
      i = next;
    } else if (ch === '\\') {
      if (i + 1 >= line.length) throw new CommandSyntaxError(`trailing backslash in ${JSON.stringify(line)}`);
      word += line[i + 1];
      inWord = true;
      i += 2;
    } else {
      word += ch;
      inWord = true;
      i += 1;
    }
  }
  if (inWord) words.push(word);
  return words;
}

/** Reads a double-quoted run starting at `start`; returns its text and the index after it. */
function readDoubleQuoted(line: string, start: number): [string, number] {
  let text = '';
  let i = start + 1;
  while (i < line.length) {
    const ch = line[i]!;
    if (ch === '"') return [text, i + 1];
    if (ch === '\\' && (line[i + 1] === '"' || line[i + 1] === '\\')) {
      text += line[i + 1];
      i += 2;
    } else {
      text += ch;
      i += 1;
    }
  }
  throw new CommandSyntaxError(`unterminated double quote at offset ${start} in ${JSON.stringify(line)}`);
}
