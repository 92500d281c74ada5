import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ENTRIES = {
  '@plurnk/plurnk-execs': fileURLToPath(new URL('../../src/index.ts', import.meta.url)),
  '@plurnk/plurnk-execs/host': fileURLToPath(new URL('../../src/host/index.ts', import.meta.url)),
};

/** Every name an entry exports, with the JSDoc text of its declaration (resolving re-exports). */
function documentation(entry: string): Map<string, string> {
  const program = ts.createProgram([entry], {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    strict: true,
  });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(entry)!;
  const docs = new Map<string, string>();
  for (const exported of checker.getExportsOfModule(checker.getSymbolAtLocation(source)!)) {
    const target = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
    docs.set(exported.name, ts.displayPartsToString(target.getDocumentationComment(checker)).trim());
  }
  return docs;
}

describe('the public surface', () => {
  it.each(Object.entries(ENTRIES))('documents every export of %s with JSDoc', (_name, entry) => {
    const docs = documentation(entry);
    expect(docs.size).toBeGreaterThan(10);
    const undocumented = [...docs].filter(([, text]) => text === '').map(([name]) => name);
    expect(undocumented).toEqual([]);
  });

  it('exports what the specification names for leaf authors', () => {
    const names = [...documentation(ENTRIES['@plurnk/plurnk-execs']).keys()];
    expect(names).toEqual(
      expect.arrayContaining([
        'BaseExecutor',
        'SubprocessExecutor',
        'SpawnArgs',
        'CommandSyntaxError',
        'tokenizeArgv',
        'discover',
        'Policy',
        'RuntimeTag',
        'ErrorDetail',
        'PLURNK_EXECS_ERROR_DETAIL_LIMIT',
        'Results',
        'renderJsonResult',
        'Advertise',
        'Notice',
        'ClientInteractionRequest',
        'ClientInteractionResolution',
        'ExecArgs',
        'ExecResult',
        'SchemeResult',
        'ProblemDetails',
        'ChannelDecl',
        'ChannelState',
        'Effect',
        'RuntimeAvailability',
        'RuntimeDecl',
        'RuntimeInvocation',
        'RuntimeToolRegistry',
        // What a 1.x service imports (plurnk-core's executor registry, reference §1.9).
        'RuntimeInvocationDecl',
        'RuntimeDeclaration',
        'ExecInfo',
        'ExecRegistry',
        'ExecutorMetadata',
      ]),
    );
    expect(documentation(ENTRIES['@plurnk/plurnk-execs/host']).has('createHost')).toBe(true);
  });

  it('exports the 1.x statics a service calls as values, at run time', async () => {
    const root = await import('../../src/index.js');
    expect(typeof root.RuntimeInvocation.assert).toBe('function');
    expect(typeof root.RuntimeInvocation.assertToolRegistry).toBe('function');
    expect(typeof root.RuntimeDeclaration.assert).toBe('function');
    expect(typeof root.RuntimeTag.assert).toBe('function');
    expect(typeof root.RuntimeTag.is).toBe('function');
  });
});
