/**
 * `@plurnk/plurnk-execs-wasm`: the `wat` and `wasm` tags, WebAssembly modules run in-thread
 * with bounded linear memory. The default export is the executor class the framework
 * constructs once per tag.
 */
import { WasmExecutor } from './wasm-executor.js';

export default WasmExecutor;
export { WasmExecutor } from './wasm-executor.js';
export { boundMemory, PAGE_BYTES, type BoundedModule } from './memory-bound.js';
export { DEFAULT_MAX_MEMORY_MB, resolveMemoryCap, WASM_MAX_MEMORY_MB, type MemoryCap } from './memory-cap.js';
