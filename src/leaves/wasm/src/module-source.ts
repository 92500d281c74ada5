import { readFile } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import { invalid, type Refusal } from './refusal.js';
import { wabtEngine } from './wabt-engine.js';

/** The module's binary, or why there is none. */
export type ModuleSource = { ok: true; bytes: Uint8Array<ArrayBuffer> } | { ok: false; refusal: Refusal };

/** What the run was given: the tag, its body and target, the working directory and the signal. */
export interface SourceInput {
  runtime: string;
  body: string;
  target: string | null;
  cwd: string | null;
  signal: AbortSignal;
}

/**
 * The binary a run executes. `wat`: the text of the body or of the target file, assembled by
 * wabt (parse, resolve names, validate, encode). `wasm`: the base64 body decoded, or the
 * target file's bytes. A target is resolved against `cwd`. Third-party text in a refusal's
 * detail goes through `limit` (ErrorDetail.preview).
 */
export async function readModuleSource(input: SourceInput, limit: (text: string) => string): Promise<ModuleSource> {
  const isText = input.runtime === 'wat';
  let source: string | Uint8Array<ArrayBuffer> = input.body;
  let name = 'module.wat';
  if (input.target !== null && input.target !== '') {
    const path = resolve(input.cwd ?? process.cwd(), input.target);
    try {
      source = isText
        ? await readFile(path, { encoding: 'utf8', signal: input.signal })
        : new Uint8Array(await readFile(path, { signal: input.signal }));
    } catch (error) {
      const errorCode = (error as NodeJS.ErrnoException).code ?? null;
      return {
        ok: false,
        refusal: {
          code: 'wasm-read-failed',
          status: errorCode === 'ENOENT' ? 404 : 500,
          detail: `WebAssembly could not read '${path}': ${limit((error as Error).message)}`,
          extensions: {
            stage: 'read',
            target: path,
            errorCode,
            recovery: 'Use a readable module target.',
            retryable: false,
          },
        },
      };
    }
    name = basename(path);
  }
  if (isText) return assemble(name, source as string, limit);
  if (typeof source !== 'string') return { ok: true, bytes: source };
  const base64 = source.replace(/\s+/g, '');
  if (base64 === '' || !/^[A-Za-z0-9+/]*={0,2}$/.test(base64) || base64.length % 4 === 1) {
    return {
      ok: false,
      refusal: invalid('The WebAssembly module could not be instantiated: the body is not base64 of a binary module'),
    };
  }
  return { ok: true, bytes: new Uint8Array(Buffer.from(base64, 'base64')) };
}

/**
 * wat text to a binary with wabt. A wabt that does not load is `wabt-init-failed` (500), a
 * syntax error `wat-parse-error` (400), a type error `wasm-invalid` (400) — what V8 would
 * refuse at instantiation, caught a step earlier with wabt's line and column.
 */
async function assemble(name: string, text: string, limit: (text: string) => string): Promise<ModuleSource> {
  let wabt: Awaited<ReturnType<typeof wabtEngine>>;
  try {
    wabt = await wabtEngine();
  } catch (error) {
    return {
      ok: false,
      refusal: {
        code: 'wabt-init-failed',
        status: 500,
        detail: `The WebAssembly text compiler failed to initialize: ${limit(messageOf(error, ''))}`,
        extensions: { stage: 'compiler-initialization' },
      },
    };
  }
  let module: ReturnType<typeof wabt.parseWat>;
  try {
    module = wabt.parseWat(name, text);
  } catch (error) {
    return {
      ok: false,
      refusal: {
        code: 'wat-parse-error',
        status: 400,
        detail: `The WebAssembly text module is invalid: ${limit(messageOf(error, 'parseWat failed:'))}`,
        extensions: { stage: 'parse', recovery: 'Correct the WebAssembly text module.', retryable: false },
      },
    };
  }
  try {
    module.resolveNames();
    module.validate();
    // A copy: the encoded bytes live in wabt's own memory, which destroy() releases.
    return { ok: true, bytes: new Uint8Array(module.toBinary({}).buffer) };
  } catch (error) {
    const detail = `The WebAssembly module could not be instantiated: ${limit(messageOf(error, 'validate failed:'))}`;
    return { ok: false, refusal: invalid(detail) };
  } finally {
    module.destroy();
  }
}

/** wabt's message without its own heading line, trimmed. */
function messageOf(error: unknown, heading: string): string {
  const message = error instanceof Error ? error.message : String(error);
  return (heading !== '' && message.startsWith(heading) ? message.slice(heading.length) : message).trim();
}
