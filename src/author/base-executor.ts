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
/** The same constructor argument under its 1.x name. */
export type ExecutorMetadata = ExecutorOptions;

/**
 * The output-scheme manifest an executor derives from its declaration (1.x
 * `BaseExecutor#manifest`, 1.x's `OutputScheme.manifestFromRuntime`): the tag as the scheme
 * name, its glyph, each channel's mimetype, the default channel (`""` when none is declared),
 * and the read-only-output defaults every executor scheme shares — data the model reads but
 * never writes, volatile (a new run is new output), folded off the ranked view.
 */
export interface ExecutorManifest {
  readonly name: string;
  readonly glyph: string;
  readonly channels: Readonly<Record<string, string>>;
  readonly defaultChannel: string;
  readonly category: 'data';
  readonly writableBy: readonly ['plugin'];
  readonly volatile: true;
  readonly modelVisible: true;
  readonly folderScopes: true;
  readonly foldedByDefault: true;
  /** A one-line usage example; absent, as in 1.x, whose base class passes none. */
  readonly example?: string;
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

  /** The fragmentless READ channel: the first declared channel, or `""` when none is declared (as 1.x). */
  get defaultChannel(): string {
    return Object.keys(this.channels)[0] ?? '';
  }

  /** The derived output-scheme manifest a 1.x service registers the tag's output scheme from. */
  get manifest(): ExecutorManifest {
    const channels: Record<string, string> = {};
    for (const [name, decl] of Object.entries(this.channels)) channels[name] = decl.mimetype;
    return {
      name: this.runtime,
      glyph: this.glyph,
      channels,
      defaultChannel: this.defaultChannel,
      category: 'data',
      writableBy: ['plugin'],
      volatile: true,
      modelVisible: true,
      folderScopes: true,
      foldedByDefault: true,
    };
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
