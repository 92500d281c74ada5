import { fileURLToPath } from 'node:url';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// A service and a TypeScript leaf, compiled against the built package (dist/*.d.ts through
// the package's own `exports`) with `skipLibCheck: false`, TypeScript's default: the shipped
// declarations themselves are checked, as a consumer's compiler checks them.
const CONSUMER = fileURLToPath(new URL('../../../fixtures/consumer/', import.meta.url));

function compile(): string[] {
  const configPath = path.join(CONSUMER, 'tsconfig.json');
  const config = ts.getParsedCommandLineOfConfigFile(
    configPath,
    {},
    { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} },
  );
  if (!config) throw new Error(`cannot read ${configPath}`);
  const program = ts.createProgram(config.fileNames, config.options);
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const where = d.file
      ? `${path.relative(CONSUMER, d.file.fileName)}:${d.file.getLineAndCharacterOfPosition(d.start ?? 0).line + 1}`
      : '';
    return `${where} TS${d.code}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
  });
}

describe('a TypeScript consumer of the built package', () => {
  it('compiles a service and a leaf with skipLibCheck false, the package declarations included', () => {
    const program = compile();
    expect(program).toEqual([]);
  }, 240_000);
});
