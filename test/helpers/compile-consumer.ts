import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

/** The consumer fixtures: TypeScript a service or a leaf writes against the package. */
export const CONSUMER = fileURLToPath(new URL('../../fixtures/consumer/', import.meta.url));

/**
 * Compiles consumer fixtures against the built package (dist/*.d.ts through the package's own
 * `exports`) with fixtures/consumer/tsconfig.json — `skipLibCheck: false`, TypeScript's
 * default, so the shipped declarations themselves are checked as a consumer's compiler checks
 * them. `files` (relative to fixtures/consumer) default to the tsconfig's; with `outDir` the
 * JavaScript is written there. Returns every diagnostic as `file:line TSnnnn: text`.
 */
export function compileConsumer(options: { files?: string[]; outDir?: string } = {}): string[] {
  const configPath = path.join(CONSUMER, 'tsconfig.json');
  const config = ts.getParsedCommandLineOfConfigFile(
    configPath,
    options.outDir === undefined ? {} : { noEmit: false, outDir: options.outDir, rootDir: CONSUMER },
    { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} },
  );
  if (!config) throw new Error(`cannot read ${configPath}`);
  const files = options.files?.map((file) => path.join(CONSUMER, file)) ?? config.fileNames;
  const program = ts.createProgram(files, config.options);
  const emitted = options.outDir === undefined ? [] : program.emit().diagnostics;
  return [...ts.getPreEmitDiagnostics(program), ...emitted].map((d) => {
    const where = d.file
      ? `${path.relative(CONSUMER, d.file.fileName)}:${d.file.getLineAndCharacterOfPosition(d.start ?? 0).line + 1}`
      : '';
    return `${where} TS${d.code}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
  });
}
