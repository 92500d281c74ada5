import type { ChannelDecl } from '../contracts/channels.js';
import type { Effect, RuntimeAvailability } from '../contracts/effect.js';
import type { ExecArgs } from '../contracts/exec-args.js';
import type { ExecResult } from '../contracts/result.js';
import type { RuntimeToolRegistry } from '../contracts/invocation.js';

/** What the framework passes to an executor's constructor: the matched tag and its glyph. */
export interface ExecutorOptions {
  runtime: string;
  glyph: string;
}

/**
 * Base of every executor leaf (§executor-contract). The framework constructs one instance per
 * matched runtime tag; a package that declares several tags may branch on `this.runtime`, but
 * must not keep per-run state on the instance.
 */
export abstract class BaseExecutor {
  /** The matched runtime tag. */
  readonly runtime: string;
  /** Presentation glyph of the tag ('' when the declaration has none). */
  readonly glyph: string;

  constructor(options: ExecutorOptions) {
    this.runtime = options.runtime;
    this.glyph = options.glyph;
  }

  /** Every channel this executor may write, in order; the first is the default channel. */
  abstract get channels(): Readonly<Record<string, ChannelDecl>>;

  /** The fragmentless READ channel: the first declared channel. */
  get defaultChannel(): string {
    const first = Object.keys(this.channels)[0];
    if (first === undefined) throw new TypeError(`executor ${this.runtime} declares no channels`);
    return first;
  }

  /** Runs one EXEC. Expected failures resolve as failure results; they do not throw. */
  abstract run(args: ExecArgs): Promise<ExecResult>;

  /** Whether this tag can work here. Default: available. Pass `signal` to any work you start. */
  async probe(_signal?: AbortSignal): Promise<RuntimeAvailability> {
    return { available: true };
  }

  /** Admission fact for `target`: pure, synchronous, cheap. Default: the conservative `host`. */
  effect(_target: string | null): Effect {
    return 'host';
  }

  /** Optional exact tool family (§executor-tool-registry); subclasses define it when they have one. */
  toolRegistry?(): RuntimeToolRegistry;
}
