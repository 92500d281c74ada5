import { describe, expect, test } from 'vitest';
import { isPlurnkExecsError, RuntimeInvocation, type RuntimeInvocationDecl } from '../../../src/index.js';

// 1.x's RuntimeInvocation statics, which a 1.x service imports (reference §1.3, §1.9): 1.x's
// accept and refuse cases, and its error texts, which a service matches on.
const assertInvocation = (value: unknown) => RuntimeInvocation.assert(value, '@acme/acme-execs-fixture', 'fixture');
const PREFIX = "runtime declaration invalid: @acme/acme-execs-fixture 'fixture' ";

describe('RuntimeInvocation.assert', () => {
  test.each<[string, RuntimeInvocationDecl]>([
    [
      'a required literal target and a two-input example',
      {
        body: { role: 'JSON arguments', required: false },
        target: { role: 'MCP tool', required: true, kind: 'literal' },
        example: { target: 'get_issue', body: '{}' },
      },
    ],
    [
      'a script target and a body example',
      {
        body: { role: 'program or script input', required: false },
        target: { role: 'script or working directory', required: false, kind: 'script' },
        example: { body: 'npm test' },
      },
    ],
    [
      'exclusive inputs and a target example with parentheses',
      {
        body: { role: 'inline query', required: false },
        target: { role: 'query file', required: false, kind: 'script' },
        exclusive: true,
        example: { target: 'query(v1).sql' },
      },
    ],
    [
      'a signature instead of an example',
      {
        body: { role: 'JSON arguments', required: false },
        target: { role: 'Read an issue', required: true, kind: 'literal' },
        signature: '{"owner": string, "repo": string, "issue_number": integer}',
      },
    ],
    [
      'an input schema instead of either, kept as written',
      {
        body: { role: 'JSON arguments', required: false },
        inputSchema: {
          type: 'object',
          properties: { value: { $ref: '#/$defs/value' } },
          $defs: { value: { type: 'string' } },
        },
      },
    ],
  ])('accepts %s and returns it as 1.x does', (_title, declared) => {
    expect(assertInvocation(declared)).toEqual(declared);
  });

  test('normalizes as 1.x: explicit required booleans, exclusive only when true', () => {
    const normalized = assertInvocation({
      body: { role: 'query' },
      target: { role: 'file', kind: 'path' },
      exclusive: false,
      example: { body: 'x' },
    });
    expect(normalized).toEqual({
      body: { role: 'query', required: false },
      target: { role: 'file', required: false, kind: 'path' },
      example: { body: 'x' },
    });
  });

  const query = { role: 'query', required: true };
  test.each<[string, unknown, string]>([
    ['nothing', undefined, 'invocation must be an object'],
    ['an empty object', {}, 'invocation.body must be an object'],
    ['a typo', { body: query, example: { body: 'find it' }, typo: true }, "invocation has unknown field 'typo'"],
    [
      'a two-line role',
      { body: { role: 'query\ncontinued', required: true }, example: { body: 'find it' } },
      'invocation.body.role must be one non-empty line',
    ],
    [
      'a required that is not a boolean',
      { body: { role: 'query', required: 'yes' }, example: { body: 'find it' } },
      'invocation.body.required must be boolean',
    ],
    [
      'an unknown target kind',
      { body: query, target: { role: 'input', required: false, kind: 'stream' }, example: { body: 'find it' } },
      'invocation.target.kind must be literal, path, resource, or script',
    ],
    [
      'an unknown target field',
      { body: query, target: { role: 'input', required: false, kind: 'path', mode: 'cwd' }, example: { body: 'x' } },
      "invocation.target has unknown field 'mode'",
    ],
    [
      'an exclusive that is not a boolean',
      { body: query, example: { body: 'find it' }, exclusive: 'yes' },
      'invocation.exclusive must be boolean',
    ],
    [
      'exclusive without a target',
      { body: query, example: { body: 'find it' }, exclusive: true },
      'exclusive invocation must declare a target',
    ],
    ['no witness', { body: query }, 'invocation must provide exactly one example or signature or inputSchema'],
    [
      'an example and a signature',
      { body: query, example: { body: 'find it' }, signature: 'string' },
      'invocation must provide exactly one example or signature or inputSchema',
    ],
    [
      'an input schema and an example',
      { body: query, example: { body: '{}' }, inputSchema: { type: 'object' } },
      'invocation must provide exactly one example or signature or inputSchema',
    ],
    [
      'an input schema and a signature',
      { body: query, signature: 'object', inputSchema: { type: 'object' } },
      'invocation must provide exactly one example or signature or inputSchema',
    ],
    [
      'a two-line signature',
      { body: query, signature: 'multi\nline' },
      'invocation.signature must be one non-empty canonical line',
    ],
    ['an empty example', { body: query, example: {} }, 'invocation.example must provide a body or target'],
    [
      'an example without the required body (and with a refused target)',
      { body: query, example: { target: 'input' } },
      'invocation.example must provide the required body',
    ],
    [
      'a two-line example body',
      { body: query, example: { body: 'find\nit' } },
      'invocation.example.body must be one non-empty canonical line',
    ],
    [
      'an example target where none is declared',
      { body: query, example: { body: 'find it', target: 'input' } },
      'invocation.example cannot provide a refused target',
    ],
    [
      'an example without the required target',
      {
        body: { role: 'query', required: false },
        target: { role: 'input', required: true, kind: 'path' },
        example: { body: 'x' },
      },
      'invocation.example must provide the required target',
    ],
    [
      'an example giving both exclusive inputs',
      {
        body: { role: 'query', required: false },
        target: { role: 'input', required: false, kind: 'path' },
        exclusive: true,
        example: { body: 'find it', target: 'input' },
      },
      'invocation.example must provide exactly one exclusive input',
    ],
    ['an input schema of null', { body: query, inputSchema: null }, 'invocation.inputSchema must be an object'],
    ['an input schema that is a list', { body: query, inputSchema: [] }, 'invocation.inputSchema must be an object'],
    [
      'an input schema that is a string',
      { body: query, inputSchema: 'object' },
      'invocation.inputSchema must be an object',
    ],
    ['an input schema of false', { body: query, inputSchema: false }, 'invocation.inputSchema must be an object'],
    [
      // 1.x's later validator refuses directory altogether; the field is still this package's (and earlier 1.x's).
      'directory: "cwd" on a literal target',
      {
        body: query,
        target: { role: 'tool', required: true, kind: 'literal', directory: 'cwd' },
        example: { target: 't', body: 'x' },
      },
      'invocation.target.directory is only valid for path or resource targets',
    ],
  ])('refuses %s in 1.x words', (_title, value, detail) => {
    const error = catchError(() => assertInvocation(value));
    expect(isPlurnkExecsError(error, 'invalid-declaration')).toBe(true);
    expect(error.message.split('\n')[0]).toBe(PREFIX + detail);
  });

  test('names every fault, one 1.x sentence each, unknown fields first', () => {
    const error = catchError(() =>
      assertInvocation({ body: { role: '', required: 1 }, example: { body: 'x' }, extra: 1 }),
    );
    expect(error.message.split('\n')).toEqual([
      `${PREFIX}invocation has unknown field 'extra'`,
      `${PREFIX}invocation.body.role must be one non-empty line`,
      `${PREFIX}invocation.body.required must be boolean`,
    ]);
  });
});

describe('RuntimeInvocation.assertToolRegistry', () => {
  const tool = (target: string, extra: Record<string, unknown> = {}) => ({
    target,
    summary: `Run ${target}.`,
    invocation: {
      body: { role: 'JSON arguments', required: false },
      target: { role: 'MCP tool', required: true, kind: 'literal' },
      signature: '{}',
    },
    ...extra,
  });
  const assertRegistry = (value: unknown) => RuntimeInvocation.assertToolRegistry(value, '@plurnk/plurnk-mcp', 'gitea');
  const GITEA = "runtime declaration invalid: @plurnk/plurnk-mcp 'gitea' ";

  test('validates one closed set of exact literal targets and keeps details', () => {
    const registry = assertRegistry({
      tools: [
        tool('issue_read'),
        {
          target: 'issue_write',
          summary: 'Write an issue.',
          invocation: {
            body: { role: 'JSON arguments', required: true },
            target: { role: 'MCP tool', required: true, kind: 'literal' },
            example: { target: 'issue_write', body: '{}' },
          },
          details: '## Authority\n\nRequires proposal review.',
        },
      ],
    });
    expect(registry.tools.map((entry) => entry.target)).toEqual(['issue_read', 'issue_write']);
    expect(registry.tools[1]?.details).toBe('## Authority\n\nRequires proposal review.');
    expect(registry.tools[0]?.invocation).toEqual(tool('issue_read').invocation);
    // Parentheses are escaped in the target slot, so they are a tool name like any other.
    expect(assertRegistry({ tools: [tool('issue)read')] }).tools.map((entry) => entry.target)).toEqual(['issue)read']);
    // What it returns passes again: a service may validate its cached snapshot twice.
    expect(assertRegistry(registry)).toEqual(registry);
  });

  test.each<[string, unknown, string]>([
    [
      'a duplicate target',
      { tools: [tool('issue_read'), tool('issue_read')] },
      "tool registry contains duplicate exact target 'issue_read'",
    ],
    [
      'a tool whose invocation declares no target',
      {
        tools: [
          {
            target: 'search',
            summary: 'Search.',
            invocation: { body: { role: 'query', required: true }, example: { body: 'find it' } },
          },
        ],
      },
      'tool registry.tools[0].invocation must declare a required literal target',
    ],
    [
      'a tool whose target is optional',
      {
        tools: [
          tool('x', {
            invocation: { ...tool('x').invocation, target: { role: 't', required: false, kind: 'literal' } },
          }),
        ],
      },
      'tool registry.tools[0].invocation must declare a required literal target',
    ],
    [
      'a tool whose target is a path',
      {
        tools: [
          tool('x', { invocation: { ...tool('x').invocation, target: { role: 't', required: true, kind: 'path' } } }),
        ],
      },
      'tool registry.tools[0].invocation must declare a required literal target',
    ],
    [
      "an example target that is not the tool's",
      {
        tools: [
          tool('issue_read', {
            invocation: {
              body: { role: 'JSON arguments', required: true },
              target: { role: 'MCP tool', required: true, kind: 'literal' },
              example: { target: 'different', body: '{}' },
            },
          }),
        ],
      },
      "tool registry.tools[0] target 'issue_read' conflicts with invocation.example.target 'different'",
    ],
    [
      'a two-line summary',
      { tools: [tool('issue_read', { summary: 'two\nlines' })] },
      'tool registry.tools[0].summary must be one non-empty line',
    ],
    [
      'a two-line target',
      { tools: [tool('a\nb')] },
      'tool registry.tools[0].target must be one non-empty canonical line',
    ],
    [
      'details that are not text',
      { tools: [tool('x', { details: 5 })] },
      'tool registry.tools[0].details must be a string',
    ],
    [
      'an unknown tool field',
      { tools: [tool('x', { effect: 'pure' })] },
      "tool registry.tools[0] has unknown field 'effect'",
    ],
    ['a tool that is not an object', { tools: ['x'] }, 'tool registry.tools[0] must be an object'],
    ['tools that are not a list', { tools: {} }, 'tool registry.tools must be an array'],
    ['an unknown registry field', { tools: [], more: true }, "tool registry has unknown field 'more'"],
    ['nothing', undefined, 'tool registry must be an object'],
    [
      "a tool whose invocation breaks assert's rules, worded as assert words them",
      { tools: [tool('x', { invocation: { ...tool('x').invocation, body: { role: '', required: false } } })] },
      'invocation.body.role must be one non-empty line',
    ],
  ])('refuses %s in 1.x words', (_title, value, detail) => {
    const error = catchError(() => assertRegistry(value));
    expect(isPlurnkExecsError(error, 'invalid-tool-registry')).toBe(true);
    expect(error.message.split('\n')[0]).toBe(GITEA + detail);
  });
});

function catchError(run: () => unknown): Error {
  try {
    run();
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a throw');
}
