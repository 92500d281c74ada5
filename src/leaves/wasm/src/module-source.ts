import { readFile } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import { wabtEngine } from './wabt-engine.js';

/** A failure the executor turns into a Problem. */
export interface Refusal {
  code: string;
  status: number;
  detail: string;
  extensions?: Record<string, string>;
}

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
 * target file's bytes. A target is resolved against `cwd`.
 */
export async function readModuleSource(input: SourceInput): Promise<ModuleSource> {
  const isText = input.runtime === 'wat';
  let source: string | Uint8Array<ArrayBuffer> = input.body;
  let name = 'body.wat';
  if (input.target !== null && input.target !== '') {
    const path = resolve(input.cwd ?? process.cwd(), input.target);
    try {
      source = isText
        ? await readFile(path, { encoding: 'utf8', signal: input.signal })
        : new Uint8Array(await readFile(path, { signal: input.signal }));
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      const status = code === 'ENOENT' || code === 'ENOTDIR' ? 404 : code === 'EISDIR' ? 400 : 500;
      const detail = `cannot read the module ${input.target} (${path}): ${(error as Error).message}`;
      return { ok: false, refusal: { code: 'wasm-read-failed', status, detail, extensions: { path } } };
    }
    name = basename(path);
  }
  if (isText) return assemble(name, source as string);
  if (typeof source !== 'string') return { ok: true, bytes: source };
  const base64 = source.replace(/\s+/g, '');
  if (base64 === '' || !/^[A-Za-z0-9+/]*={0,2}$/.test(base64) || base64.length % 4 === 1) {
    return {
      ok: false,
      refusal: { code: 'wasm-invalid', status: 400, detail: 'the body is not base64 of a WebAssembly binary' },
    };
  }
  return { ok: true, bytes: new Uint8Array(Buffer.from(base64, 'base64')) };
}

/** wat text to a binary with wabt; a syntax error is `wat-parse-error`, a type error `wasm-invalid`. */
async function assemble(name: string, text: string): Promise<ModuleSource> {
  const wabt = await wabtEngine();
  let module: ReturnType<typeof wabt.parseWat>;
  try {
    module = wabt.parseWat(name, text);
  } catch (error) {
    return {
      ok: false,
      refusal: { code: 'wat-parse-error', status: 400, detail: messageOf(error, 'parseWat failed:') },
    };
  }
  try {
    module.resolveNames();
    module.validate();
    // A copy: the encoded bytes live in wabt's own memory, which destroy() releases.
    return { ok: true, bytes: new Uint8Array(module.toBinary({}).buffer) };
  } catch (error) {
    return { ok: false, refusal: { code: 'wasm-invalid', status: 400, detail: messageOf(error, 'validate failed:') } };
  } finally {
    module.destroy();
  }
}

/** wabt's message without its own heading line, trimmed. */
function messageOf(error: unknown, heading: string): string {
  const message = error instanceof Error ? error.message : String(error);
  return (message.startsWith(heading) ? message.slice(heading.length) : message).trim();
}
