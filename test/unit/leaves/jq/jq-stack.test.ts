import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import initWabt from 'wabt';
import { describe, expect, it } from 'vitest';
import { enlargeStack } from '../../../../src/leaves/jq/src/jq-stack.js';

const requireFromLeaf = createRequire(new URL('../../../../src/leaves/jq/package.json', import.meta.url));

/** An instance of `wat`, assembled with the real wabt. */
async function instantiate(wat: string): Promise<WebAssembly.Instance> {
  const wabt = await initWabt();
  const parsed = wabt.parseWat('module.wat', wat);
  try {
    return new WebAssembly.Instance(new WebAssembly.Module(Uint8Array.from(parsed.toBinary({}).buffer)));
  } finally {
    parsed.destroy();
  }
}

/** A module shaped like an Emscripten build: a stack pointer, sbrk's break at `breakAt`, data. */
function emscriptenLike(heapBase: number, breaks: number[]): string {
  const words = breaks.map((at) => `(data (i32.const ${at}) "${leBytes(heapBase)}")`).join('\n');
  return `(module
    (memory (export "F") 32)
    (global $sp (mut i32) (i32.const ${heapBase}))
    (func (export "J") (param i32) (global.set $sp (local.get 0)))
    (func (export "L") (result i32) (global.get $sp))
    (func (export "break") (result i32) (i32.load (i32.const 1024)))
    ${words})`;
}

interface EmscriptenLike {
  F: WebAssembly.Memory;
  L: () => number;
  break: () => number;
}

function leBytes(value: number): string {
  return [0, 8, 16, 24].map((shift) => `\\${((value >>> shift) & 0xff).toString(16).padStart(2, '0')}`).join('');
}

describe('enlargeStack', () => {
  it('moves the stack pointer and the heap break up by the new stack, growing the memory', async () => {
    const instance = await instantiate(emscriptenLike(1_048_576, [1024]));
    const exports = instance.exports as unknown as EmscriptenLike;
    expect(enlargeStack(instance, 4)).toEqual({ enlarged: true, addedMiB: 4 });
    const top = 1_048_576 + 4 * 1_048_576;
    expect(exports.L()).toBe(top);
    expect(exports.break()).toBe(top);
    expect(exports.F.buffer.byteLength).toBeGreaterThanOrEqual(top);
  });

  it('leaves a module alone and says why when its layout is not the one it knows', async () => {
    const twoBreaks = await instantiate(emscriptenLike(1_048_576, [1024, 2048]));
    expect(enlargeStack(twoBreaks, 4)).toEqual({
      enlarged: false,
      reason: "found more than one word holding the heap's start 1048576",
    });
    expect((twoBreaks.exports as unknown as EmscriptenLike).L()).toBe(1_048_576);
    const noBreak = await instantiate(emscriptenLike(1_048_576, []));
    expect(enlargeStack(noBreak, 4)).toMatchObject({ enlarged: false, reason: /found no word/ });
    const bare = await instantiate('(module (memory (export "memory") 1))');
    expect(enlargeStack(bare, 4)).toMatchObject({ enlarged: false, reason: /stack functions/ });
  });

  it('recognises the jq-wasm build this leaf depends on, before its constructors run', async () => {
    const module = await WebAssembly.compile(await readFile(requireFromLeaf.resolve('jq-wasm/jq.wasm')));
    // Imports are never called before the constructors: stubs stand in for jq-wasm's glue.
    const imports: WebAssembly.Imports = {};
    for (const { module: from, name, kind } of WebAssembly.Module.imports(module)) {
      imports[from] ??= {};
      (imports[from] as Record<string, unknown>)[name] = kind === 'function' ? () => 0 : undefined;
    }
    expect(enlargeStack(new WebAssembly.Instance(module, imports))).toEqual({ enlarged: true, addedMiB: 16 });
  });
});
