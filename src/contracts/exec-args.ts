import * as v from 'valibot';
import { schemaAgrees, type SameType } from './same-type.js';
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
export const ExecArgsSchema: v.GenericSchema<unknown, ExecArgsFields> = v.strictObject({
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

/** The shape {@link ExecArgsSchema} checks: the data fields, each sink as some function. */
export type ExecArgsFields = Omit<ExecArgs, 'write' | 'setState' | 'emit' | 'interact' | 'entry'> & {
  write: (...args: unknown[]) => unknown;
  setState: (...args: unknown[]) => unknown;
  emit: (...args: unknown[]) => unknown;
  interact: (...args: unknown[]) => unknown;
  entry?: (...args: unknown[]) => unknown;
};

/** How a subprocess runtime turns a body and target into a process (§executor-subprocess). */
export interface SpawnArgs {
  cmd: string;
  args: string[];
  useShell: boolean;
  stdin?: string;
}
const spawnArgsSchema = v.strictObject({
  cmd: v.pipe(v.string(), v.nonEmpty('cmd must not be empty')),
  args: v.array(v.string()),
  useShell: v.boolean(),
  stdin: v.optional(v.string()),
});
schemaAgrees<SameType<v.InferOutput<typeof spawnArgsSchema>, SpawnArgs>>();
/** Schema of {@link SpawnArgs}. */
export const SpawnArgsSchema: v.GenericSchema<SpawnArgs> = spawnArgsSchema;
