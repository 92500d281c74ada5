import { loadJq, type Jq, type JqResult } from 'jq-wasm';

/** What one jq call did: jq's own result, or the engine aborted and was thrown away. */
export type JqOutcome = { kind: 'ran'; result: JqResult } | { kind: 'aborted'; message: string };

/**
 * The one jq-wasm instance of this thread, loaded on first use (≈25 ms) and reused — it is
 * a reusable engine, not per-run state. A call that throws (a wasm stack overflow surfaces as
 * `memory access out of bounds`, later calls as `Aborted()`) poisons the instance for good,
 * so it is dropped and the next run loads a fresh one.
 */
let current: { loading: Promise<Jq>; loaded?: Jq } | undefined;

/** The thread's jq engine, loading it when there is none. A failed load is not cached. */
export function jqEngine(): Promise<Jq> {
  if (current === undefined) {
    const slot: { loading: Promise<Jq>; loaded?: Jq } = { loading: loadJq() };
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
