/**
 * The WebAssembly memories of this thread that `process.memoryUsage().external` leaves out.
 *
 * V8 counts a memory in the isolate's external memory only when its backing store says so,
 * and that changed: up to Node 24 (V8 13.6) a non-shared memory is counted at its current
 * size, from Node 26 (V8 14) no WebAssembly memory is, and a shared one never was. So the
 * heartbeat's `external` alone would let a memory grow past `limits.externalMb` unseen. This
 * module keeps a census of the memories the leaf can reach — every `new WebAssembly.Memory`
 * and every memory an instance exports (`new WebAssembly.Instance`, `WebAssembly.instantiate`,
 * `instantiateStreaming`) — and the heartbeat adds the ones V8 does not count. Whether V8
 * counts a kind is measured, not assumed from a version: the first time a heartbeat finds a
 * memory in the census, one 1 MiB memory of each kind is made and `external` read around it.
 *
 * What it cannot see: a memory a module keeps to itself (neither imported nor exported), or
 * one made in another realm (`node:vm`). On a Node that does not count memories, those are
 * left to the host's RSS watch (`limits.rssMb`).
 *
 * The replacements live on this thread's `WebAssembly` global, which the thread owns, so the
 * census is this module's state; it is installed once, before the leaf is imported.
 */

// The compiler's libraries here (ES2023, @types/node 20) declare no WebAssembly: the little
// this module touches is typed by hand.
interface WasmMemory {
  readonly buffer: ArrayBuffer | SharedArrayBuffer;
}
type WasmMemoryClass = new (descriptor: { initial: number; maximum?: number; shared?: boolean }) => WasmMemory;
type Instantiate = (...args: unknown[]) => Promise<unknown>;
interface WasmNamespace {
  Memory: WasmMemoryClass;
  Instance: new (...args: unknown[]) => object;
  instantiate: Instantiate;
  instantiateStreaming?: Instantiate;
}

const PROBE_PAGES = 16;
const PROBE_BYTES = PROBE_PAGES * 64 * 1024;

const memories = new Set<WeakRef<WasmMemory>>();
const seen = new WeakSet<WasmMemory>();
let wasm: WasmNamespace | undefined;
let OriginalMemory: WasmMemoryClass | undefined;
/** Whether V8's `external` counts a memory of each kind; measured on first need. */
let counted: { shared: boolean; unshared: boolean } | undefined;

/** Starts the census on this thread's `WebAssembly` global. A second call does nothing. */
export function watchWasmMemories(): void {
  const namespace = (globalThis as { WebAssembly?: WasmNamespace }).WebAssembly;
  if (wasm !== undefined || namespace === undefined) return;
  wasm = namespace;
  OriginalMemory = namespace.Memory;
  namespace.Memory = replaceConstructor(namespace.Memory, track);
  namespace.Instance = replaceConstructor(namespace.Instance, trackExports);
  namespace.instantiate = followInstances(namespace.instantiate);
  if (typeof namespace.instantiateStreaming === 'function') {
    namespace.instantiateStreaming = followInstances(namespace.instantiateStreaming);
  }
}

/** Bytes of this thread's known WebAssembly memories that V8 does not put in `external`. */
export function wasmBytesOutsideExternal(): number {
  if (memories.size === 0 || OriginalMemory === undefined) return 0;
  counted ??= { shared: countedByV8(OriginalMemory, true), unshared: countedByV8(OriginalMemory, false) };
  let bytes = 0;
  for (const ref of memories) {
    const memory = ref.deref();
    if (memory === undefined) {
      memories.delete(ref);
      continue;
    }
    const buffer = memory.buffer;
    const shared = typeof SharedArrayBuffer === 'function' && buffer instanceof SharedArrayBuffer;
    if (!(shared ? counted.shared : counted.unshared)) bytes += buffer.byteLength;
  }
  return bytes;
}

/**
 * A constructor that builds with `original` and hands each object to `seen`. `instanceof`,
 * `prototype` and objects made elsewhere stay as they were; the prototype's `constructor` is
 * pointed at the replacement, so `Object.getPrototypeOf(x).constructor` does not lead round it.
 */
function replaceConstructor<T extends object, C extends new (...args: never[]) => T>(
  original: C,
  seen: (made: T) => unknown,
): C {
  const replacement = new Proxy(original, {
    construct(target, args, newTarget) {
      const made = Reflect.construct(target, args, newTarget) as T;
      seen(made);
      return made;
    },
  });
  Object.defineProperty(original.prototype, 'constructor', { value: replacement });
  return replacement;
}

/** `instantiate` answers an Instance (given a Module) or `{ module, instance }` (given bytes). */
function followInstances(original: Instantiate): Instantiate {
  return (...args) =>
    original.apply(wasm, args).then((result) => {
      const instance = (result as { instance?: unknown } | null)?.instance;
      trackExports(instance ?? result);
      return result;
    });
}

function track(memory: WasmMemory): void {
  if (seen.has(memory)) return;
  seen.add(memory);
  memories.add(new WeakRef(memory));
}

function trackExports(instance: unknown): void {
  const exports = (instance as { exports?: unknown } | null)?.exports;
  if (typeof exports !== 'object' || exports === null || OriginalMemory === undefined) return;
  for (const value of Object.values(exports)) {
    if (value instanceof OriginalMemory) track(value);
  }
}

/**
 * Whether making a memory of this kind moves the isolate's `external` by its size. Synchronous,
 * so no leaf code runs in between; a garbage collection that frees other external memory at
 * that moment can only make the answer "not counted", which over-reports, never hides.
 */
function countedByV8(Memory: WasmMemoryClass, shared: boolean): boolean {
  const before = process.memoryUsage().external;
  const probe = new Memory({ initial: PROBE_PAGES, maximum: PROBE_PAGES, shared });
  const grew = process.memoryUsage().external - before;
  return probe.buffer.byteLength === PROBE_BYTES && grew >= PROBE_BYTES / 2;
}
