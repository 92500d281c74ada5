import initWabt from 'wabt';

/** The wabt module type, as its factory resolves it. */
export type Wabt = Awaited<ReturnType<typeof initWabt>>;

/**
 * The thread's wabt module (the WebAssembly Binary Toolkit, itself compiled to wasm),
 * initialised on first use (35–50 ms) and reused. A failed initialisation is not cached.
 */
let engine: Promise<Wabt> | undefined;

/** The thread's wabt module. */
export function wabtEngine(): Promise<Wabt> {
  if (engine === undefined) {
    const loading = initWabt();
    engine = loading;
    loading.catch(() => {
      if (engine === loading) engine = undefined;
    });
  }
  return engine;
}
