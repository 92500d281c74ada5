import { describe, expect, test } from 'vitest';
import { isPlurnkExecsError, RuntimeDeclaration } from '../../../src/index.js';

// 1.x's RuntimeDeclaration.assert(value, owner), which a 1.x service imports (reference §1.3,
// §1.9): the fields it admits, what it returns, and its error texts.
const OWNER = '@acme/acme-execs-fixture';
const invocation = { body: { role: 'query', required: true }, example: { body: 'find it' } };
const declaration = (extra: Record<string, unknown> = {}) => ({
  name: 'find',
  summary: 'Find things.',
  invocation,
  ...extra,
});

describe('RuntimeDeclaration.assert', () => {
  test('returns { name, summary, invocation, glyph?, details?, resourcesPath? } as 1.x does', () => {
    expect(RuntimeDeclaration.assert(declaration(), OWNER)).toEqual(declaration());
    const full = declaration({ glyph: '🔎', details: '## More', resourcesPath: '/tools' });
    expect(RuntimeDeclaration.assert(full, OWNER)).toEqual(full);
  });

  test('normalizes the invocation as RuntimeInvocation.assert does', () => {
    const decl = declaration({ invocation: { body: { role: 'query' }, exclusive: false, example: { body: 'x' } } });
    expect(RuntimeDeclaration.assert(decl, OWNER).invocation).toEqual({
      body: { role: 'query', required: false },
      example: { body: 'x' },
    });
  });

  test.each<[string, unknown, string]>([
    ['a value that is not an object', 'find', `runtime declaration invalid: ${OWNER} declaration must be an object`],
    [
      'an obsolete example field',
      declaration({ example: '## EXEC0 [find]\nx' }),
      `runtime declaration invalid: ${OWNER} declaration has unknown field 'example'`,
    ],
    [
      'a missing invocation',
      { name: 'broken', summary: 'Broken.' },
      `runtime declaration invalid: ${OWNER} 'broken' invocation must be an object`,
    ],
    [
      'an invocation fault, naming the runtime',
      declaration({ invocation: { body: { role: 'q', required: true } } }),
      `runtime declaration invalid: ${OWNER} 'find' invocation must provide exactly one example or signature or inputSchema`,
    ],
    [
      'a missing name',
      { summary: 'x', invocation },
      `exec runtime declaration invalid: ${OWNER} must declare a string name matching [a-z][a-z0-9+.-]* (lowercase URI-scheme syntax)`,
    ],
    [
      'a name outside the tag syntax',
      declaration({ name: 'Alias' }),
      `exec runtime declaration invalid: ${OWNER} name 'Alias' must match [a-z][a-z0-9+.-]* (lowercase URI-scheme syntax)`,
    ],
    [
      'the reserved name',
      declaration({ name: 'only' }),
      `exec runtime declaration invalid: ${OWNER} name 'only' is reserved by PLURNK_EXECS_ONLY`,
    ],
    [
      'a missing summary',
      { name: 'find', invocation },
      `runtime declaration invalid: ${OWNER} summary must be one non-empty line`,
    ],
    [
      'a two-line summary',
      declaration({ summary: 'one\ntwo' }),
      `runtime declaration invalid: ${OWNER} summary must be one non-empty line`,
    ],
    [
      'a glyph that is not text',
      declaration({ glyph: 5 }),
      `runtime declaration invalid: ${OWNER} glyph must be a string of one line`,
    ],
    [
      'details that are not text',
      declaration({ details: 5 }),
      `runtime declaration invalid: ${OWNER} details must be a string`,
    ],
    ...['tools', '', 5].map((resourcesPath): [string, unknown, string] => [
      `a resourcesPath of ${JSON.stringify(resourcesPath)}`,
      declaration({ resourcesPath }),
      `runtime declaration invalid: ${OWNER} resourcesPath must be a non-empty absolute pathname like /tools`,
    ]),
  ])('refuses %s in 1.x words', (_title, value, message) => {
    let error: unknown;
    try {
      RuntimeDeclaration.assert(value, OWNER);
    } catch (caught) {
      error = caught;
    }
    expect(isPlurnkExecsError(error, 'invalid-declaration')).toBe(true);
    expect((error as Error).message.split('\n')[0]).toBe(message);
  });
});
