import { describe, expect, test } from 'vitest';
import {
  renderToolDocument,
  validateRuntimeDecl,
  validateToolRegistry,
  type ToolDocumentSource,
} from '../../../src/index.js';

/** A source as discovery would produce it: validated and normalized. */
function source(decl: Record<string, unknown>, details = ''): ToolDocumentSource {
  const valid = validateRuntimeDecl(decl, { packageName: '@test/docs' });
  return { runtime: valid.name, summary: valid.summary, invocation: valid.invocation, details };
}

const sh = source(
  {
    name: 'sh',
    summary: 'Run a shell command.',
    invocation: { body: { role: 'shell command line', required: true }, example: { body: 'git status --short' } },
  },
  '## Environment\n\nThe scoped environment.\n',
);

describe('a general runtime document', () => {
  test('is exactly: H1, Summary witness in inline code, Invocation with the fenced witness and rules, then details', () => {
    const { runtime, tools } = renderToolDocument(sh);
    expect(tools).toEqual([]);
    expect(runtime.summary).toBe('`## EXEC0 [sh] <!-- Run a shell command. -->\\ngit status --short`');
    expect(runtime.markdown).toBe(
      [
        '# sh',
        '',
        '## Summary',
        '',
        '`## EXEC0 [sh] <!-- Run a shell command. -->\\ngit status --short`',
        '',
        '## Invocation',
        '',
        '```plurnk',
        '## EXEC0 [sh] <!-- Run a shell command. -->',
        'git status --short',
        '```',
        '',
        '- Body: shell command line. Required.',
        '- Target: none; an EXEC that gives one is refused.',
        '',
        '## Environment',
        '',
        'The scoped environment.',
        '',
      ].join('\n'),
    );
  });

  test.each<[string, Record<string, unknown>, string, string[]]>([
    [
      'a target and body example',
      {
        body: { role: 'stdin' },
        target: { role: 'script', kind: 'path', required: true, directory: 'cwd' },
        example: { target: 'main.py', body: '42' },
      },
      '`## EXEC0 [t] (main.py) <!-- Run it. -->\\n42`',
      [
        '- Target `(…)`: script; a local or `file://` path, passed as is. Required. A local directory becomes the working directory instead.',
        '- Body: stdin. Optional.',
      ],
    ],
    [
      'a target-only example has no body line',
      {
        body: { role: 'stdin' },
        target: { role: 'input', kind: 'resource' },
        exclusive: true,
        example: { target: 'data.json' },
      },
      '`## EXEC0 [t] (data.json) <!-- Run it. -->`',
      [
        '- Give a body or a target, not both.',
        '- Every EXEC gives at least a body or a target.',
        'read once and handed over as a temporary file',
      ],
    ],
    [
      'a whitespace example body is left out',
      { body: { role: 'stdin' }, target: { role: 'name', kind: 'literal' }, example: { target: 'x', body: '   ' } },
      '`## EXEC0 [t] (x) <!-- Run it. -->`',
      ['it is a name, never read as a path or address'],
    ],
    [
      'a signature stands in the body line and is labelled as no example',
      { body: { role: 'JSON', required: true }, signature: '{"q": string}' },
      '`## EXEC0 [t] <!-- Run it. -->\\n{"q": string}`',
      ['- Signature: `{"q": string}` describes the body\'s shape; it is not a runnable example.'],
    ],
    [
      'an input schema (later 1.x) leaves the heading alone and shows the schema the body follows',
      { body: { role: 'JSON arguments', required: true }, inputSchema: { type: 'object', required: ['q'] } },
      '`## EXEC0 [t] <!-- Run it. -->`',
      ['- Input schema: the body is JSON that follows `{"type":"object","required":["q"]}`.'],
    ],
    [
      'backticks in the witness widen the code span',
      { body: { role: 'cmd', required: true }, example: { body: 'echo `date`' } },
      '`` ## EXEC0 [t] <!-- Run it. -->\\necho `date` ``',
      [],
    ],
  ])('%s', (_title, invocation, summary, lines) => {
    const { runtime } = renderToolDocument(source({ name: 't', summary: 'Run it.', invocation }));
    expect(runtime.summary).toBe(summary);
    for (const line of lines) expect(runtime.markdown).toContain(line);
    expect(runtime.markdown.split('\n').filter((line) => line.startsWith('# '))).toEqual(['# t']);
  });

  test('a witness holding a fence gets a longer fence', () => {
    const { runtime } = renderToolDocument(
      source({
        name: 'md',
        summary: 'Render.',
        invocation: { body: { role: 'markdown', required: true }, example: { body: '```x```' } },
      }),
    );
    expect(runtime.markdown).toContain('````plurnk\n## EXEC0 [md] <!-- Render. -->\n```x```\n````');
  });

  test('details come after the framework sections and never before them', () => {
    const { runtime } = renderToolDocument(sh);
    expect(runtime.markdown.indexOf('## Environment')).toBeGreaterThan(runtime.markdown.indexOf('## Invocation'));
    expect(renderToolDocument({ ...sh, details: '' }).runtime.markdown).not.toContain('Environment');
  });
});

describe('an exact tool family', () => {
  const family = source(
    {
      name: 'mcp',
      summary: 'Tools of the acme MCP server.',
      invocation: { body: { role: 'arguments' }, signature: '{}' },
    },
    'Server notes.',
  );
  const registry = validateToolRegistry(
    {
      tools: [
        {
          target: 'echo',
          summary: 'Echo a message.',
          invocation: {
            body: { role: 'JSON arguments', required: true },
            target: { role: 'tool', kind: 'literal', required: true },
            signature: '{"message": string}',
          },
          details: '- `message`: what to echo',
        },
        {
          target: 'add',
          summary: 'Add two numbers.',
          invocation: {
            body: { role: 'JSON arguments', required: true },
            target: { role: 'tool', kind: 'literal', required: true },
            example: { target: 'add', body: '{"a": 1, "b": 2}' },
          },
        },
      ],
    },
    { runtime: 'mcp' },
  );

  test('the family document keeps the family summary and fences every annotated heading', () => {
    const { runtime } = renderToolDocument(family, registry);
    expect(runtime.summary).toBe('Tools of the acme MCP server.');
    expect(runtime.markdown).toBe(
      [
        '# mcp',
        '',
        '## Summary',
        '',
        'Tools of the acme MCP server.',
        '',
        '## Invocation',
        '',
        '```plurnk',
        '## EXEC0 [mcp] (echo) <!-- Echo a message. -->',
        '{"message": string}',
        '',
        '## EXEC0 [mcp] (add) <!-- Add two numbers. -->',
        '{"a": 1, "b": 2}',
        '```',
        '',
        'Server notes.',
        '',
      ].join('\n'),
    );
  });

  test('each tool gets one child whose Summary is its annotated invocation', () => {
    const { tools } = renderToolDocument(family, registry);
    expect(tools.map((tool) => [tool.target, tool.summary])).toEqual([
      ['echo', '`## EXEC0 [mcp] (echo) <!-- Echo a message. -->\\n{"message": string}`'],
      ['add', '`## EXEC0 [mcp] (add) <!-- Add two numbers. -->\\n{"a": 1, "b": 2}`'],
    ]);
    const echo = tools[0]?.markdown ?? '';
    expect(echo.startsWith('# mcp (echo)\n\n## Summary\n\n')).toBe(true);
    for (const part of [
      '- Target: `echo`, exactly.',
      '- Signature: `{"message": string}`',
      '- Body: JSON arguments. Required.',
      '```plurnk\n## EXEC0 [mcp] (echo) <!-- Echo a message. -->\n{"message": string}\n```',
    ]) {
      expect(echo).toContain(part);
    }
    expect(echo.trimEnd().endsWith('- `message`: what to echo')).toBe(true);
  });

  test('an empty registry exposes no target and no generic fallback', () => {
    const { runtime, tools } = renderToolDocument(family, validateToolRegistry({ tools: [] }, { runtime: 'mcp' }));
    expect(tools).toEqual([]);
    expect(runtime.markdown).toContain('## Invocation\n\nNo tools are available: this runtime admits no target.');
    expect(runtime.markdown).not.toContain('```plurnk');
  });
});
