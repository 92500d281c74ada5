import { describe, expect, it } from 'vitest';
import { CommandSyntaxError, tokenizeArgv } from '../../../src/index.js';
import { namedError } from '../../helpers/named-error.js';

describe('tokenizeArgv', () => {
  it.each([
    ['plain words', 'log --oneline -n 3', ['log', '--oneline', '-n', '3']],
    ['runs of whitespace', '  a \t b\n c  ', ['a', 'b', 'c']],
    ['an empty line', '', []],
    ['single quotes keep everything literally', `'a "b" \\n $x'`, ['a "b" \\n $x']],
    ['double quotes escape only quote and backslash', `"a \\" \\\\ \\n $x"`, ['a " \\ \\n $x']],
    ['a bare backslash escapes the next character', 'a\\ b \\"c\\\\', ['a b', '"c\\']],
    ['quotes join adjacent text into one word', `pre'mid'"post"`, ['premidpost']],
    ['empty quotes make an empty word', `a '' ""`, ['a', '', '']],
    ['shell syntax stays literal text', 'a && b | c $(d)', ['a', '&&', 'b', '|', 'c', '$(d)']],
  ])('splits %s', (_name, line, words) => {
    expect(tokenizeArgv(line)).toEqual(words);
  });

  it.each([
    ['an unterminated single quote', `a 'b`, /unterminated single quote/],
    ['an unterminated double quote', `a "b`, /unterminated double quote/],
    ['a double quote closed only by an escaped quote', `"a\\"`, /unterminated double quote/],
    ['a trailing backslash', 'a b\\', /trailing backslash/],
  ])('throws CommandSyntaxError on %s', (_name, line, message) => {
    const caught = namedError(() => tokenizeArgv(line), 'invalid-command');
    expect(caught).toBeInstanceOf(CommandSyntaxError);
    expect(caught.message).toMatch(message);
    expect(caught.message).toContain(JSON.stringify(line));
  });
});
