import { BaseExecutor, ErrorDetail, PlurnkExecsError, renderJsonResult, Results } from '@plurnk/plurnk-execs';
import type {
  ChannelDecl,
  Effect,
  ExecArgs,
  ExecResult,
  ExecutorOptions,
  JsonValue,
  RuntimeAvailability,
} from '@plurnk/plurnk-execs';
import { boundMemory } from './memory-bound.js';
import { resolveMemoryCap, WASM_MAX_MEMORY_MB } from './memory-cap.js';
import { readModuleSource } from './module-source.js';
import { invalid, type Refusal } from './refusal.js';
import { LOG_LIMIT, runModule } from './run-module.js';
import { wabtEngine } from './wabt-engine.js';

const CHANNELS: Readonly<Record<string, ChannelDecl>> = Object.freeze({
  results: Object.freeze({ mimetype: 'application/json' }),
});

const TAGS = ['wat', 'wasm'];

/** The owner of this leaf's Problems, as 1.x names it. */
const OWNER = 'executor:wasm';

/** A BigInt reaches the results as its decimal string, as 1.x renders it. */
const bigintAsString = (_key: string, value: unknown): unknown =>
  typeof value === 'bigint' ? value.toString() : value;

/**
 * The `wat` and `wasm` tags: a WebAssembly module from the body (wat text, or base64 of a
 * binary) or from a target file, run in this thread with `env.log` as its only import and
 * its linear memory capped by `PLURNK_EXECS_WASM_MAX_MEMORY_MB`. Reports
 * `{returned, log, exports}` on `results`. Effect `pure` without a target, `read` with one.
 */
export class WasmExecutor extends BaseExecutor {
  constructor(options: ExecutorOptions) {
    super(options);
    if (!TAGS.includes(options.runtime)) {
      throw new PlurnkExecsError(
        'invalid-declaration',
        `@plurnk/plurnk-execs-wasm claims runtimes wat and wasm; it was constructed for ${JSON.stringify(options.runtime)}`,
      );
    }
  }

  get channels(): Readonly<Record<string, ChannelDecl>> {
    return CHANNELS;
  }

  override effect(target: string | null): Effect {
    return target !== null && target !== '' ? 'read' : 'pure';
  }

  /** `wat` needs wabt to load (which also warms it); `wasm` needs only the engine's WebAssembly. */
  override async probe(_signal?: AbortSignal): Promise<RuntimeAvailability> {
    if (this.runtime === 'wasm') return { available: true, detail: `WebAssembly in V8 ${process.versions.v8}` };
    try {
      await wabtEngine();
      return { available: true, detail: 'wabt 1.0.39' };
    } catch (error) {
      return {
        available: false,
        detail: `wabt did not load: ${error instanceof Error ? error.message : String(error)}`,
      };
    }
  }

  async run(args: ExecArgs): Promise<ExecResult> {
    const owner = OWNER;
    const runtime = args.runtime;
    const cancelled = () =>
      fail(
        args,
        Results.failure(
          owner,
          'cancelled',
          499,
          'WebAssembly execution was cancelled.',
          {},
          { runtime, stage: 'execution', retryable: false },
        ),
      );
    if (args.signal.aborted) return cancelled();
    const limit = ErrorDetail.resolve(owner);
    if (!limit.ok) return fail(args, limit.result);
    const cap = resolveMemoryCap(owner);
    if (!cap.ok) return fail(args, cap.result);
    const preview = (text: string) => ErrorDetail.preview(text, limit.limit);
    const refuse = (refusal: Refusal, extensions: Record<string, JsonValue> = {}) =>
      fail(
        args,
        Results.failure(
          owner,
          refusal.code,
          refusal.status,
          refusal.detail,
          {},
          {
            runtime,
            ...refusal.extensions,
            ...extensions,
          },
        ),
      );

    const source = await readModuleSource(
      { runtime: this.runtime, body: args.body, target: args.target, cwd: args.cwd, signal: args.signal },
      preview,
    );
    if (args.signal.aborted) return cancelled();
    if (!source.ok) return refuse(source.refusal);

    const bounded = boundMemory(source.bytes, cap.pages);
    if (bounded.kind === 'too-large') {
      return refuse({
        code: 'wasm-memory-limit',
        status: 400,
        detail: bounded.detail,
        extensions: {
          stage: 'instantiate',
          recovery: `Declare a smaller initial memory, or ask the operator to raise ${WASM_MAX_MEMORY_MB}.`,
          retryable: false,
        },
      });
    }
    let module: WebAssembly.Module;
    try {
      module = await WebAssembly.compile(bounded.kind === 'bounded' ? bounded.bytes : source.bytes);
    } catch (error) {
      return refuse(
        invalid(
          `The WebAssembly module could not be instantiated: ${preview(error instanceof Error ? error.message : String(error))}`,
        ),
      );
    }
    if (bounded.kind === 'malformed') {
      // V8 accepted what the section reader could not: refuse rather than run unbounded.
      return refuse(
        invalid('The WebAssembly module could not be instantiated: its layout could not be read to bound its memory'),
      );
    }
    if (args.signal.aborted) return cancelled();

    const ran = await runModule(module, preview);
    if (!ran.ok) return refuse(ran.refusal, ran.log.length > 0 ? { log: ran.log } : {});
    if (ran.logDropped > 0)
      args.emit({
        source: 'executor:wasm',
        kind: 'log_dropped',
        level: 'warn',
        message: `env.log kept its first ${LOG_LIMIT} calls and dropped ${ran.logDropped}`,
      });
    args.write('results', renderJsonResult(ran.output, bigintAsString));
    args.setState('results', 'closed');
    return Results.success(200);
  }
}

function fail(args: ExecArgs, result: ExecResult): ExecResult {
  args.setState('results', 'errored');
  return result;
}
