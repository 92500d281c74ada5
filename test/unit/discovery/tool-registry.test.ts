import { describe, expect, test } from 'vitest';
import { validateToolRegistry } from '../../../src/index.js';
import { namedError } from '../../helpers/named-error.js';

const toolTarget = { role: 'tool name', kind: 'literal', required: true };
const args = { role: 'JSON arguments', required: true };

function echo(): Record<string, unknown> & { invocation: Record<string, unknown> } {
  return {
    target: 'echo',
    summary: 'Echo a message.',
    invocation: { body: args, target: toolTarget, signature: '{"message": string}' },
    details: '- `message`: what to echo',
  };
}
function add(): Record<string, unknown> & { invocation: Record<string, unknown> } {
  return {
    target: 'add',
    summary: 'Add two numbers.',
    invocation: { body: args, target: toolTarget, example: { target: 'add', body: '{"a": 1, "b": 2}' } },
  };
}
const registry = (...tools: unknown[]) => ({ tools });

const rejection = (snapshot: unknown) =>
  namedError(
    () => validateToolRegistry(snapshot, { runtime: 'mcp', packageName: '@acme/mcp' }),
    'invalid-tool-registry',
  );

describe('validateToolRegistry accepts', () => {
  test.each<[string, unknown]>([
    ['tools with signatures and examples', registry(echo(), add())],
    ['an empty set (it admits no target, with no fallback)', registry()],
    ['a tool whose target bucket is also a directory-free literal', registry({ ...add(), details: undefined })],
  ])('%s', (_title, snapshot) => {
    const out = validateToolRegistry(snapshot, { runtime: 'mcp' });
    expect(out.tools.map((tool) => tool.target)).toEqual(
      (snapshot as { tools: { target: string }[] }).tools.map((tool) => tool.target),
    );
    expect(Object.isFrozen(out)).toBe(true);
    expect(Object.isFrozen(out.tools)).toBe(true);
  });

  test('each tool comes back normalized like a runtime declaration', () => {
    const out = validateToolRegistry(registry(echo()), { runtime: 'mcp' });
    expect(out.tools[0]).toEqual({
      target: 'echo',
      summary: 'Echo a message.',
      invocation: {
        body: { role: 'JSON arguments', required: true },
        target: { role: 'tool name', kind: 'literal', required: true },
        exclusive: false,
        signature: '{"message": string}',
      },
      details: '- `message`: what to echo',
    });
  });
});

describe('validateToolRegistry rejects, naming the runtime, the field and what it received', () => {
  test.each<[string, unknown, string]>([
    [
      'a duplicate target',
      registry(echo(), add(), { ...add(), summary: 'Again.' }),
      '- tools[2].target repeats the target of tools[1]; each tool target must be unique; received "add". Fix: give each tool one exact, unique, one-line target',
    ],
    [
      'an example target that differs from the tool target',
      registry({ ...add(), invocation: { ...add().invocation, example: { target: 'sum', body: '{}' } } }),
      '- tools[0].invocation.example.target must equal the tool\'s own target; received "sum"',
    ],
    [
      'a path target',
      registry({ ...echo(), invocation: { ...echo().invocation, target: { ...toolTarget, kind: 'path' } } }),
      '- tools[0].invocation.target.kind must be "literal": a tool target is an exact name; received "path"',
    ],
    [
      'an optional target',
      registry({ ...echo(), invocation: { ...echo().invocation, target: { role: 'tool name', kind: 'literal' } } }),
      '- tools[0].invocation.target.required must be true: a tool always takes its exact target; received nothing',
    ],
    [
      'no target declaration',
      registry({ ...echo(), invocation: { body: args, signature: 'x' } }),
      '- tools[0].invocation.target is required: a tool declares its target bucket; received nothing',
    ],
    [
      'an example missing the required target',
      registry({ ...add(), invocation: { ...add().invocation, example: { body: '{}' } } }),
      '- tools[0].invocation.example has no target, but target.required is true',
    ],
    [
      'a multiline summary',
      registry({ ...echo(), summary: 'Echo\nit.' }),
      '- tools[0].summary must be one line; received "Echo\\nit."',
    ],
    ['an empty target', registry({ ...echo(), target: '' }), '- tools[0].target must not be empty; received ""'],
    [
      'a multiline target',
      registry({ ...echo(), target: 'a\nb' }),
      '- tools[0].target must be one line; received "a\\nb"',
    ],
    [
      'an unknown tool field',
      registry({ ...echo(), effect: 'read' }),
      '- tools[0].effect is not a known field; received "read". Fix: remove it or correct its spelling (allowed here: target, summary, invocation, details)',
    ],
    [
      'an invocation breaking a declaration rule',
      registry({ ...add(), invocation: { ...add().invocation, signature: 's' } }),
      '- tools[0].invocation.signature is declared together with an example',
    ],
    ['tools that are not an array', { tools: { echo: echo() } }, '- tools must be an array'],
    ['a registry that is not an object', 'echo', '- the registry must be an object; received "echo"'],
    ['an unknown registry field', { tools: [], version: 2 }, '- version is not a known field'],
  ])('%s', (_title, snapshot, line) => {
    const { message } = rejection(snapshot);
    expect(message).toContain('Invalid tool registry from runtime "mcp" (package "@acme/mcp")');
    expect(message).toContain(line);
  });

  test('without a package the runtime alone is named', () => {
    const error = namedError(
      () => validateToolRegistry(registry(echo(), echo()), { runtime: 'mcp' }),
      'invalid-tool-registry',
    );
    expect(error.message).toContain('Invalid tool registry from runtime "mcp":');
  });
});
