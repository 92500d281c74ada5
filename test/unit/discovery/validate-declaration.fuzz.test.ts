import fc from 'fast-check';
import { expect, test } from 'vitest';
import { isPlurnkExecsError, validateRuntimeDecl } from '../../../src/index.js';

// An independent statement of §executor-runtime-declaration and §executor-invocation, written
// from the spec without valibot or the library's helpers. The validator must accept exactly
// what this accepts.
type Obj = Record<string, unknown>;
const isObject = (x: unknown): x is Obj => typeof x === 'object' && x !== null && !Array.isArray(x);
const present = (o: Obj, key: string) => o[key] !== undefined;
const onlyKeys = (o: Obj, keys: string[]) => Object.keys(o).every((k) => keys.includes(k));
const noBreak = (x: unknown) => typeof x === 'string' && !x.includes('\n') && !x.includes('\r');
const oneLine = (x: unknown) => noBreak(x) && (x as string).length > 0;
const optionalBool = (o: Obj, key: string) => !present(o, key) || typeof o[key] === 'boolean';

function specAccepts(d: unknown): boolean {
  if (!isObject(d) || !onlyKeys(d, ['name', 'glyph', 'summary', 'invocation', 'details', 'resourcesPath']))
    return false;
  if (typeof d.name !== 'string' || !/^[a-z][a-z0-9+.-]*$/.test(d.name) || d.name === 'only') return false;
  if (present(d, 'glyph') && !noBreak(d.glyph)) return false;
  if (!oneLine(d.summary)) return false;
  if (present(d, 'details') && typeof d.details !== 'string') return false;
  // The later 1.x resourcesPath: an absolute pathname such as /tools.
  if (present(d, 'resourcesPath') && !(noBreak(d.resourcesPath) && (d.resourcesPath as string).startsWith('/')))
    return false;
  return invocationAccepted(d.invocation);
}

function invocationAccepted(inv: unknown): boolean {
  if (!isObject(inv) || !onlyKeys(inv, ['body', 'target', 'exclusive', 'example', 'signature', 'inputSchema']))
    return false;
  const body = inv.body;
  if (
    !isObject(body) ||
    !onlyKeys(body, ['role', 'required']) ||
    !oneLine(body.role) ||
    !optionalBool(body, 'required')
  )
    return false;
  const target = inv.target;
  if (target !== undefined) {
    if (!isObject(target) || !onlyKeys(target, ['role', 'required', 'kind', 'directory'])) return false;
    if (!oneLine(target.role) || !optionalBool(target, 'required')) return false;
    if (!['literal', 'path', 'resource'].includes(target.kind as string)) return false;
    if (present(target, 'directory') && (target.directory !== 'cwd' || target.kind === 'literal')) return false;
  }
  if (!optionalBool(inv, 'exclusive')) return false;
  if (inv.exclusive === true && target === undefined) return false;
  // Exactly one witness: an example, a signature, or (later 1.x) a JSON Schema of the body.
  if (['example', 'signature', 'inputSchema'].filter((key) => present(inv, key)).length !== 1) return false;
  if (present(inv, 'signature')) return oneLine(inv.signature);
  if (present(inv, 'inputSchema')) return isObject(inv.inputSchema);
  const example = inv.example;
  if (!isObject(example) || !onlyKeys(example, ['body', 'target'])) return false;
  if ((present(example, 'body') && !noBreak(example.body)) || (present(example, 'target') && !noBreak(example.target)))
    return false;
  // The example must be an EXEC the runtime itself would admit.
  const hasBody = typeof example.body === 'string' && example.body.trim() !== '';
  const hasTarget = typeof example.target === 'string' && example.target !== '';
  if (hasTarget && target === undefined) return false;
  if (!hasBody && body.required === true) return false;
  if (!hasTarget && isObject(target) && target.required === true) return false;
  if (!hasBody && !hasTarget) return false;
  return !(hasBody && hasTarget && inv.exclusive === true);
}

// Mostly well-formed values with a steady trickle of every kind of mistake.
const junk = fc.oneof(
  fc.constant(null),
  fc.integer(),
  fc.boolean(),
  fc.constant([]),
  fc.constant({}),
  fc.string({ maxLength: 4 }),
);
const mostly = <T>(good: fc.Arbitrary<T>, ...bad: fc.Arbitrary<unknown>[]) =>
  fc.oneof(
    { arbitrary: good as fc.Arbitrary<unknown>, weight: 24 },
    ...bad.map((arbitrary) => ({ arbitrary, weight: 1 })),
  );
const text = mostly(fc.constantFrom('Run it.', 'x', ' ', 'a b'), fc.constantFrom('', 'a\nb', 'a\rb', '\n'), junk);
const lineOrEmpty = mostly(
  fc.constantFrom('x', 'ls -la', 'main.cob', 'x', 'ls -la', 'main.cob', '   ', ''),
  fc.constantFrom('a\nb', '\r'),
  junk,
);
const bool = mostly(fc.boolean(), junk);
const withExtra = (record: fc.Arbitrary<Obj>) =>
  fc.tuple(record, fc.nat(30)).map(([o, n]) => (n === 0 ? { ...o, unexpected: n } : o));

const body = withExtra(fc.record({ role: text, required: bool }, { requiredKeys: ['role'] }));
const target = withExtra(
  fc.record(
    {
      role: text,
      required: bool,
      kind: mostly(fc.constantFrom('literal', 'path', 'resource'), fc.constantFrom('url', 'file')),
      directory: mostly(fc.constant('cwd'), fc.constant('home')),
    },
    { requiredKeys: ['role', 'kind'] },
  ),
);
const example = withExtra(fc.record({ body: lineOrEmpty, target: lineOrEmpty }, { requiredKeys: [] }));
// Exactly one of example or signature most of the time; both or neither now and then.
const witness = fc.oneof(
  { arbitrary: fc.record({ example: mostly(example, junk) }), weight: 12 },
  { arbitrary: fc.record({ signature: text }), weight: 4 },
  { arbitrary: fc.record({ inputSchema: mostly(fc.constantFrom({ type: 'object' }, {}), junk) }), weight: 3 },
  { arbitrary: fc.record({ example: mostly(example, junk), signature: text }), weight: 1 },
  { arbitrary: fc.record({ inputSchema: fc.constant({}), signature: text }), weight: 1 },
  { arbitrary: fc.constant({}), weight: 1 },
);
const invocation = withExtra(
  fc
    .tuple(
      fc.record(
        { body: mostly(body, junk), target: mostly(target, junk), exclusive: bool },
        { requiredKeys: ['body'] },
      ),
      witness,
    )
    .map(([buckets, w]) => ({ ...buckets, ...w })),
);
const name = mostly(
  fc.stringMatching(/^[a-z][a-z0-9+.-]{0,5}$/),
  fc.constantFrom('only', 'Sh', '2x', '', 'a_b', 'x y'),
  junk,
);
const declaration = mostly(
  withExtra(
    fc.record(
      {
        name,
        glyph: mostly(fc.constantFrom('🗄', '', '>'), fc.constant('a\nb'), junk),
        summary: text,
        invocation: mostly(invocation, junk),
        details: mostly(fc.constantFrom('More.', 'a\n\nb'), junk),
        resourcesPath: mostly(fc.constantFrom('/tools', '/'), fc.constantFrom('tools', '', '/a\nb'), junk),
      },
      { requiredKeys: ['name', 'summary', 'invocation'] },
    ),
  ),
  junk,
);

test('over 10,000 generated declarations the validator throws only its named error and agrees with the spec predicate', () => {
  let accepted = 0;
  let rejected = 0;
  fc.assert(
    fc.property(declaration, (decl) => {
      let ok: boolean;
      try {
        validateRuntimeDecl(decl, { packageName: '@fuzz/leaf' });
        ok = true;
      } catch (error) {
        if (!isPlurnkExecsError(error, 'invalid-declaration')) throw error;
        expect((error as Error).message).toContain('package "@fuzz/leaf"');
        ok = false;
      }
      expect(ok).toBe(specAccepts(decl));
      if (ok) accepted += 1;
      else rejected += 1;
    }),
    { numRuns: 10_000 },
  );
  // Both sides of the line were really explored.
  expect(accepted).toBeGreaterThan(500);
  expect(rejected).toBeGreaterThan(500);
});
