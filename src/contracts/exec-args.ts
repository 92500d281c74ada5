import * as v from 'valibot';
import type { ChannelState } from './channels.js';
import type { ClientInteractionRequest, ClientInteractionResolution, Notice } from './notice.js';

/** Options of the optional `entry` materialization sink (§executor-entry-sink). */
export interface EntryOptions {
  tags: string[];
  mimetype?: string;
}

/**
 * Everything `run()` receives (§executor-sinks). Deliberately carries no worker identity.
 * The sinks are the consumer's: an executor never sees storage or subscriptions.
 */
export interface ExecArgs {
  runtime: string;
  body: string;
  /**
   * The body under its early-1.x (0.4.x) name: the host passes the same text in both, so a
   * leaf that reads `args.command` runs unchanged. New code reads `body`.
   *
   * @deprecated Read `body`.
   */
  command?: string;
  cwd: string | null;
  target: string | null;
  /** Exact child environment when supplied; a subprocess uses it verbatim. */
  env?: NodeJS.ProcessEnv;
  signal: AbortSignal;
  write(channel: string, chunk: string, mimetype?: string): void;
  setState(channel: string, state: ChannelState): void;
  emit(notice: Notice): void;
  interact(request: ClientInteractionRequest): Promise<ClientInteractionResolution>;
  entry?(path: string, content: string | null, opts: EntryOptions): Promise<string>;
}

/** Schema of {@link ExecArgs}: the data fields exactly, the sinks as functions. */
export const ExecArgsSchema = v.strictObject({
  runtime: v.string(),
  body: v.string(),
  command: v.optional(v.string()),
  cwd: v.nullable(v.string()),
  target: v.nullable(v.string()),
  env: v.optional(v.record(v.string(), v.optional(v.string()))),
  signal: v.instance(AbortSignal),
  write: v.function(),
  setState: v.function(),
  emit: v.function(),
  interact: v.function(),
  entry: v.optional(v.function()),
});

/** How a subprocess runtime turns a body and target into a process (§executor-subprocess). */
export const SpawnArgsSchema = v.strictObject({
  cmd: v.pipe(v.string(), v.nonEmpty('cmd must not be empty')),
  args: v.array(v.string()),
  useShell: v.boolean(),
  stdin: v.optional(v.string()),
});
/** How a subprocess runtime turns a body and target into a process. */
export type SpawnArgs = v.InferOutput<typeof SpawnArgsSchema>;
