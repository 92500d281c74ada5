import { describe, expect, test } from 'vitest';
import { validateRuntimeDecl } from '../../../src/index.js';
import { namedError } from '../../helpers/named-error.js';

const PACKAGE = '@acme/acme-execs-cobol';

/** A valid declaration, the spec's own example; each case below changes one thing. */
function cobol(): Record<string, unknown> & { invocation: Record<string, unknown> } {
  return {
    name: 'cobol',
    glyph: '🗄',
    summary: 'Run a COBOL program.',
    invocation: {
      body: { role: 'COBOL program', required: true },
      example: { body: "DISPLAY 'HELLO'." },
    },
  };
}

const rejection = (decl: unknown) =>
  namedError(
    () => validateRuntimeDecl(decl, { packageName: PACKAGE, source: 'plurnk.runtimes[0]' }),
    'invalid-declaration',
  );

const withInvocation = (invocation: Record<string, unknown>) => ({ ...cobol(), invocation });
const file = { role: 'source file', kind: 'path' };

describe('validateRuntimeDecl accepts', () => {
  test.each<[string, Record<string, unknown>]>([
    ['the spec example', cobol()],
    ['no glyph', { ...cobol(), glyph: undefined }],
    ['inline details', { ...cobol(), details: 'More:\n\n- one\n- two' }],
    [
      'a target-only example',
      withInvocation({ body: { role: 'stdin' }, target: { ...file, required: true }, example: { target: 'main.cob' } }),
    ],
    [
      'a body and target example',
      withInvocation({ body: { role: 'stdin' }, target: file, example: { body: 'x', target: 'main.cob' } }),
    ],
    [
      'exclusive inputs with a body-only example',
      withInvocation({ body: { role: 'code' }, target: file, exclusive: true, example: { body: 'x' } }),
    ],
    [
      'a signature instead of an example',
      withInvocation({ body: { role: 'arguments' }, signature: '{"query": string, "limit"?: number}' }),
    ],
    [
      'directory "cwd" on a path target',
      withInvocation({
        body: { role: 'command', required: true },
        target: { ...file, directory: 'cwd' },
        example: { body: 'ls' },
      }),
    ],
    [
      'directory "cwd" on a resource target',
      withInvocation({
        body: { role: 'program' },
        target: { role: 'input', kind: 'resource', directory: 'cwd' },
        example: { target: 'a.json' },
      }),
    ],
    ['a tag with + . and -', { ...cobol(), name: 'c++.x-2' }],
  ])('%s', (_title, decl) => {
    const out = validateRuntimeDecl(decl, { packageName: PACKAGE });
    expect(out.name).toBe(decl.name);
    expect(Object.isFrozen(out)).toBe(true);
    expect(Object.isFrozen(out.invocation)).toBe(true);
  });

  test('the invocation is normalized: explicit booleans, no undefined fields, nothing undeclared', () => {
    const out = validateRuntimeDecl(
      withInvocation({
        body: { role: 'stdin' },
        target: { ...file, directory: undefined },
        example: { target: 'main.cob', body: undefined },
      }),
      { packageName: PACKAGE },
    );
    expect(out.invocation).toEqual({
      body: { role: 'stdin', required: false },
      target: { role: 'source file', kind: 'path', required: false },
      exclusive: false,
      example: { target: 'main.cob' },
    });
    expect(Object.keys(out.invocation.target ?? {})).not.toContain('directory');
    expect(Object.keys(out.invocation.example ?? {})).toEqual(['target']);
  });

  test('the input is not mutated and the output shares no objects with it', () => {
    const decl = cobol();
    const before = JSON.stringify(decl);
    const out = validateRuntimeDecl(decl, { packageName: PACKAGE });
    expect(JSON.stringify(decl)).toBe(before);
    expect(out.invocation).not.toBe(decl.invocation);
  });
});

describe('validateRuntimeDecl rejects, naming the field and what it received', () => {
  test.each<[string, unknown, string, string, string]>([
    // title, declaration, field, problem, received
    ['an uppercase tag', { ...cobol(), name: 'Cobol' }, 'name', 'must match [a-z][a-z0-9+.-]*', '"Cobol"'],
    ['a tag starting with a digit', { ...cobol(), name: '2fast' }, 'name', 'must match', '"2fast"'],
    ['a tag with an underscore', { ...cobol(), name: 'a_b' }, 'name', 'must match', '"a_b"'],
    [
      'the reserved tag only',
      { ...cobol(), name: 'only' },
      'name',
      'is reserved: PLURNK_EXECS_ONLY owns that name',
      '"only"',
    ],
    ['a numeric name', { ...cobol(), name: 7 }, 'name', 'must be a string', '7'],
    ['a missing name', { ...cobol(), name: undefined }, 'name', 'is required', 'nothing'],
    ['a multiline summary', { ...cobol(), summary: 'Run\nCOBOL.' }, 'summary', 'must be one line', '"Run\\nCOBOL."'],
    ['a CR in the summary', { ...cobol(), summary: 'Run\rCOBOL.' }, 'summary', 'must be one line', '"Run\\rCOBOL."'],
    ['an empty summary', { ...cobol(), summary: '' }, 'summary', 'must not be empty', '""'],
    ['a missing summary', { ...cobol(), summary: undefined }, 'summary', 'is required', 'nothing'],
    ['a multiline glyph', { ...cobol(), glyph: 'a\nb' }, 'glyph', 'must be one line', '"a\\nb"'],
    ['non-string details', { ...cobol(), details: ['x'] }, 'details', 'must be a string', '["x"]'],
    ['an unknown top-level field', { ...cobol(), example: 'x' }, 'example', 'is not a known field', '"x"'],
    ['a missing invocation', { ...cobol(), invocation: undefined }, 'invocation', 'is required', 'nothing'],
    [
      'an invocation that is not an object',
      { ...cobol(), invocation: 'body' },
      'invocation',
      'must be an object',
      '"body"',
    ],
    ['a missing body', withInvocation({ example: { body: 'x' } }), 'invocation.body', 'is required', 'nothing'],
    [
      'a multiline body role',
      withInvocation({ body: { role: 'a\nb' }, example: { body: 'x' } }),
      'invocation.body.role',
      'must be one line',
      '"a\\nb"',
    ],
    [
      'an empty body role',
      withInvocation({ body: { role: '' }, example: { body: 'x' } }),
      'invocation.body.role',
      'must not be empty',
      '""',
    ],
    [
      'a string required',
      withInvocation({ body: { role: 'x', required: 'yes' }, example: { body: 'x' } }),
      'invocation.body.required',
      'must be true or false',
      '"yes"',
    ],
    [
      'an unknown body field',
      withInvocation({ body: { role: 'x', optional: true }, example: { body: 'x' } }),
      'invocation.body.optional',
      'is not a known field',
      'true',
    ],
    [
      'an unknown invocation field',
      withInvocation({ body: { role: 'x' }, example: { body: 'x' }, timeout: 5 }),
      'invocation.timeout',
      'is not a known field',
      '5',
    ],
    [
      'an unknown target kind',
      withInvocation({ body: { role: 'x' }, target: { role: 'f', kind: 'url' }, example: { body: 'x' } }),
      'invocation.target.kind',
      'must be one of "literal", "path", "resource"',
      '"url"',
    ],
    [
      'a target without a kind',
      withInvocation({ body: { role: 'x' }, target: { role: 'f' }, example: { body: 'x' } }),
      'invocation.target.kind',
      'is required',
      'nothing',
    ],
    [
      'a directory other than cwd',
      withInvocation({ body: { role: 'x' }, target: { ...file, directory: 'home' }, example: { body: 'x' } }),
      'invocation.target.directory',
      'must be "cwd"',
      '"home"',
    ],
    [
      'directory on a literal target',
      withInvocation({
        body: { role: 'x' },
        target: { role: 'n', kind: 'literal', directory: 'cwd' },
        example: { body: 'x' },
      }),
      'invocation.target.directory',
      'is only valid for "path" and "resource" targets',
      '"cwd"',
    ],
    [
      'exclusive without a target',
      withInvocation({ body: { role: 'x' }, exclusive: true, example: { body: 'x' } }),
      'invocation.exclusive',
      'is true, but exclusive needs a target declaration',
      'true',
    ],
    [
      'both example and signature',
      withInvocation({ body: { role: 'x' }, example: { body: 'x' }, signature: 'sig' }),
      'invocation.signature',
      'is declared together with an example; keep exactly one of example, signature or inputSchema',
      '"sig"',
    ],
    [
      'neither example nor signature',
      withInvocation({ body: { role: 'x' } }),
      'invocation.example',
      'is required when there is no signature or inputSchema',
      'nothing',
    ],
    [
      'a multiline signature',
      withInvocation({ body: { role: 'x' }, signature: 'a\nb' }),
      'invocation.signature',
      'must be one line',
      '"a\\nb"',
    ],
    [
      'a multiline example body',
      withInvocation({ body: { role: 'x' }, example: { body: 'a\nb' } }),
      'invocation.example.body',
      'must be one line',
      '"a\\nb"',
    ],
    [
      'a multiline example target',
      withInvocation({ body: { role: 'x' }, target: file, example: { target: 'a\nb' } }),
      'invocation.example.target',
      'must be one line',
      '"a\\nb"',
    ],
    [
      'an unknown example field',
      withInvocation({ body: { role: 'x' }, example: { body: 'x', cwd: '/' } }),
      'invocation.example.cwd',
      'is not a known field',
      '"/"',
    ],
    [
      'an example target where none is declared',
      withInvocation({ body: { role: 'x' }, example: { body: 'x', target: 'f' } }),
      'invocation.example',
      'gives a target, but the invocation declares no target',
      '{"body":"x","target":"f"}',
    ],
    [
      'an example without a required body',
      withInvocation({ body: { role: 'x', required: true }, target: file, example: { target: 'f' } }),
      'invocation.example',
      'has no body, but body.required is true',
      '{"target":"f"}',
    ],
    [
      'a whitespace body for a required body',
      withInvocation({ body: { role: 'x', required: true }, example: { body: '   ' } }),
      'invocation.example',
      'has no body, but body.required is true',
      '{"body":"   "}',
    ],
    [
      'an example without a required target',
      withInvocation({ body: { role: 'x' }, target: { ...file, required: true }, example: { body: 'x' } }),
      'invocation.example',
      'has no target, but target.required is true',
      '{"body":"x"}',
    ],
    [
      'an empty example',
      withInvocation({ body: { role: 'x' }, example: {} }),
      'invocation.example',
      'gives neither a body nor a target',
      '{}',
    ],
    [
      'an empty-string example target',
      withInvocation({ body: { role: 'x' }, target: file, example: { target: '' } }),
      'invocation.example',
      'gives neither a body nor a target',
      '{"target":""}',
    ],
    [
      'both inputs in an exclusive example',
      withInvocation({ body: { role: 'x' }, target: file, exclusive: true, example: { body: 'x', target: 'f' } }),
      'invocation.example',
      'gives both a body and a target, but exclusive is true',
      '{"body":"x","target":"f"}',
    ],
  ])('%s', (_title, decl, field, problem, received) => {
    const { message } = rejection(decl);
    expect(message).toContain(`package "${PACKAGE}"`);
    expect(message).toContain('(plurnk.runtimes[0])');
    expect(message).toContain(`- ${field} ${problem}`);
    expect(message).toContain(`received ${received}.`);
    expect(message).toMatch(/Fix: \S/);
  });

  test('the message names the tag when the declaration has a usable name', () => {
    expect(rejection({ ...cobol(), summary: '' }).message).toContain('runtime "cobol"');
    expect(rejection({ ...cobol(), name: 5 }).message).toContain('unnamed runtime');
  });

  test('every problem is listed, with a count', () => {
    const { message } = rejection({ ...cobol(), name: 'Bad', summary: 'a\nb', glyph: 3 });
    expect(message).toContain('(3 problems)');
    for (const field of ['- name ', '- summary ', '- glyph ']) expect(message).toContain(field);
  });

  test('an unknown field lists the fields allowed where it was found', () => {
    expect(rejection({ ...cobol(), docs: 'x' }).message).toContain(
      'allowed here: name, glyph, summary, invocation, details',
    );
    expect(
      rejection(withInvocation({ body: { role: 'x' }, target: { ...file, cwd: true }, example: { body: 'x' } }))
        .message,
    ).toContain('allowed here: role, required, kind, directory');
  });

  test.each([[null], [5], ['cobol'], [undefined]])(
    'a declaration that is not an object (%j) is named as such',
    (decl) => {
      expect(rejection(decl).message).toMatch(
        /- the declaration must be an object; received .+\. Fix: declare an object/,
      );
    },
  );

  test('an array in place of a declaration is refused for what it lacks', () => {
    const { message } = rejection(['cobol']);
    expect(message).toContain('- name is required');
    expect(message).toContain('- [0] is not a known field; received "cobol"');
  });

  test('the valibot issues are kept as the cause', () => {
    const error = rejection({ ...cobol(), summary: '' });
    expect((error.cause as { issues: unknown[] }).issues).toHaveLength(1);
  });
});
