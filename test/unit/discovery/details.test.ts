import { describe, expect, test } from 'vitest';
import { stripTitle } from '../../../src/discovery/details.js';

describe('stripTitle removes only the exact authoring title of docs/<tag>.md', () => {
  test.each<[string, string, string]>([
    ['title, blank line, body', '# sh\n\nRun a shell.\n', 'Run a shell.\n'],
    ['title then body directly', '# sh\nRun a shell.\n', 'Run a shell.\n'],
    ['a whitespace-only line counts as blank', '# sh\n  \nRun.\n', 'Run.\n'],
    ['only one blank line goes', '# sh\n\n\nRun.\n', '\nRun.\n'],
    ['the title alone', '# sh', ''],
    ['the title and its newline', '# sh\n', ''],
    ['no title', 'Run a shell.\n', 'Run a shell.\n'],
    ['another tag’s title stays', '# bash\n\nRun.\n', '# bash\n\nRun.\n'],
    ['a title with trailing text stays', '# sh tips\n\nRun.\n', '# sh tips\n\nRun.\n'],
    ['a title with a trailing space is not exact', '# sh \n\nRun.\n', '# sh \n\nRun.\n'],
    ['an H2 of the tag stays', '## sh\n\nRun.\n', '## sh\n\nRun.\n'],
    ['a later "# sh" stays', 'Intro.\n\n# sh\n', 'Intro.\n\n# sh\n'],
    ['tags with regex characters match literally', '# c++\n\nCompile.\n', 'Compile.\n'],
  ])('%s', (_title, text, expected) => {
    const tag = text.startsWith('# c++') ? 'c++' : 'sh';
    expect(stripTitle(text, tag)).toBe(expected);
  });
});
