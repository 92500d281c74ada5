import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { loadJq, type Jq, type JqResult } from 'jq-wasm';
import { enlargeStack, type StackOutcome } from './jq-stack.js';

/** What one jq call did: jq's own result, or the engine aborted and was thrown away. */
export type JqOutcome = { kind: 'ran'; result: JqResult } | { kind: 'aborted'; message: string };

/**
 * The one jq-wasm instance of this thread, loaded on first use (≈25 ms) and reused — it is
 * a reusable engine, not per-run state. A call that throws (memory exhausted surfaces as
 * `Aborted()`, a stack overrun as `memory access out of bounds`) poisons the instance for
 * good, so it is dropped and the next run loads a fresh one.
 */
let current: { loading: Promise<Jq>; loaded?: Jq } | undefined;

/** jq-wasm's module, compiled once per thread; every fresh engine instantiates it again. */
let compiled: Promise<WebAssembly.Module> | undefined;

/** What the last engine's stack enlargement did (the probe reports it). */
let lastStack: StackOutcome | undefined;

/** The stack of the most recently loaded engine: enlarged, or why not. */
export function jqStack(): StackOutcome | undefined {
  return lastStack;
}

function compileJq(): Promise<WebAssembly.Module> {
  if (compiled === undefined) {
    const compiling = readFile(createRequire(import.meta.url).resolve('jq-wasm/jq.wasm')).then((bytes) =>
      WebAssembly.compile(bytes),
    );
    // A failed compile is not cached: the next load tries again.
    compiling.catch(() => {
      if (compiled === compiling) compiled = undefined;
    });
    compiled = compiling;
  }
  return compiled;
}

/** A fresh jq-wasm instance whose C stack is enlarged before its constructors run (see jq-stack.ts). */
async function loadEngine(): Promise<Jq> {
  const module = await compileJq();
  return loadJq({
    instantiateWasm: (imports, onSuccess) => {
      const instance = new WebAssembly.Instance(module, imports);
      lastStack = enlargeStack(instance);
      onSuccess(instance, module);
    },
  });
}

/** The thread's jq engine, loading it when there is none. A failed load is not cached. */
export function jqEngine(): Promise<Jq> {
  if (current === undefined) {
    const slot: { loading: Promise<Jq>; loaded?: Jq } = { loading: loadEngine() };
    // Registered before any caller can await it, so `loaded` is set before a caller resumes.
    slot.loading.then(
      (jq) => {
        slot.loaded = jq;
      },
      () => {
        if (current === slot) current = undefined;
      },
    );
    current = slot;
  }
  return current.loading;
}

/**
 * Runs jq synchronously on `engine`. Emscripten reports an abort through `console.error`
 * before throwing; the call is synchronous, so console.error is swapped for a collector for
 * exactly its duration, and what it caught joins the Problem instead of the host's stderr.
 */
export function callJq(engine: Jq, input: string, program: string, flags: string[]): JqOutcome {
  const original = console.error;
  const printed: string[] = [];
  console.error = (...parts: unknown[]) => void printed.push(parts.map(String).join(' '));
  try {
    return { kind: 'ran', result: engine.raw(input, program, flags) };
  } catch (error) {
    discard(engine);
    const thrown = error instanceof Error ? error.message : String(error);
    const extra = printed.filter((line) => line.trim() !== '' && !thrown.includes(line.trim()));
    return { kind: 'aborted', message: [thrown, ...extra].join('; ') };
  } finally {
    console.error = original;
  }
}

/** Forgets `engine` if it is still the current one, so the next run loads a fresh module. */
function discard(engine: Jq): void {
  if (current?.loaded === engine) current = undefined;
}
