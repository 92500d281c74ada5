/**
 * jq-wasm keeps jq's C stack inside the module's linear memory, below the heap, and its build
 * sized that stack at 1 MiB: deep recursion (a 10 000-deep value sorted, compared or printed)
 * runs past it and the module traps with `memory access out of bounds`. Native jq has an
 * 8 MiB C stack and passes those cases.
 *
 * The module's exports are enough to give it a larger stack before its constructors run:
 * grow the memory, move the start of the heap (the break that `sbrk` hands out from) up past
 * the new stack, and set the stack pointer to the top of the new region. The stack then grows
 * down through its old 1 MiB and the new space, and the heap never reaches it. Nothing of
 * the module's code changes.
 *
 * The export names and the break's address are those of one build, so each is verified on
 * the fresh instance before anything is written; a build that looks different keeps its own
 * stack and the reason is returned, for the probe to report.
 */

/** How much stack jq gets on top of its own 1 MiB: jq 1.8.2's 10 001-deep suite cases need more than 14. */
export const JQ_STACK_MIB = 16;

/** What {@link enlargeStack} did to one instance. */
export type StackOutcome = { enlarged: true; addedMiB: number } | { enlarged: false; reason: string };

interface EmscriptenExports {
  /** The module's linear memory (minified export `F` in jq-wasm 3.0.0-jq-1.8.2). */
  readonly memory: WebAssembly.Memory;
  /** `_emscripten_stack_restore(sp)`: sets the stack pointer. */
  readonly stackRestore: (sp: number) => void;
  /** `emscripten_stack_get_current()`: reads the stack pointer. */
  readonly stackCurrent: () => number;
}

const WASM_PAGE = 65_536;
const MIB = 1_048_576;

/**
 * Gives a freshly instantiated jq-wasm module `stackMiB` more stack. Call it before the module's
 * constructors run (inside jq-wasm's `instantiateWasm` hook, before `onSuccess`).
 */
export function enlargeStack(instance: WebAssembly.Instance, stackMiB: number = JQ_STACK_MIB): StackOutcome {
  const found = findExports(instance.exports);
  if (typeof found === 'string') return { enlarged: false, reason: found };
  const { memory, stackRestore, stackCurrent } = found;
  // Before any constructor ran, the stack pointer sits at the top of the stack, which is where
  // the heap starts; the break (sbrk's static variable) holds the same address.
  const heapBase = stackCurrent();
  const breakAt = findBreak(new DataView(memory.buffer), heapBase);
  if (typeof breakAt === 'string') return { enlarged: false, reason: breakAt };
  const top = heapBase + stackMiB * MIB;
  const missing = Math.ceil(top / WASM_PAGE) - memory.buffer.byteLength / WASM_PAGE;
  if (missing > 0) memory.grow(missing);
  new DataView(memory.buffer).setUint32(breakAt, top, true);
  stackRestore(top);
  return { enlarged: true, addedMiB: stackMiB };
}

function findExports(exports: WebAssembly.Exports): EmscriptenExports | string {
  const memory = Object.values(exports).filter((value) => value instanceof WebAssembly.Memory);
  // jq-wasm 3.0.0-jq-1.8.2's glue names them: `J` is _emscripten_stack_restore, `L` is
  // emscripten_stack_get_current.
  const stackRestore = exports['J'];
  const stackCurrent = exports['L'];
  if (memory.length !== 1 || typeof stackRestore !== 'function' || typeof stackCurrent !== 'function')
    return 'the module does not export one memory and the stack functions this leaf knows';
  return {
    memory: memory[0] as WebAssembly.Memory,
    stackRestore: stackRestore as (sp: number) => void,
    stackCurrent: stackCurrent as () => number,
  };
}

/** The address of the one aligned word below the heap that holds the heap's start: sbrk's break. */
function findBreak(view: DataView, heapBase: number): number | string {
  if (!Number.isInteger(heapBase) || heapBase <= 0 || heapBase % 16 !== 0 || heapBase >= view.byteLength)
    return `the stack pointer ${heapBase} is not where an Emscripten heap starts`;
  const matches: number[] = [];
  for (let at = 0; at + 4 <= heapBase && matches.length < 2; at += 4)
    if (view.getUint32(at, true) === heapBase) matches.push(at);
  if (matches.length !== 1)
    return `found ${matches.length === 0 ? 'no' : 'more than one'} word holding the heap's start ${heapBase}`;
  return matches[0] as number;
}
