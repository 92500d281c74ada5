import type {
  ChannelState,
  ClientInteractionRequest,
  ClientInteractionResolution,
  ExecArgs,
  Notice,
} from '../../src/index.js';

/** Everything a run did through its sinks, in order. */
export interface Recording {
  events: (
    | { kind: 'write'; channel: string; chunk: string; mimetype?: string }
    | { kind: 'state'; channel: string; state: ChannelState }
    | { kind: 'notice'; notice: Notice }
  )[];
  /** Concatenated writes per channel. */
  text(channel: string): string;
  /** Last state set per channel (undefined when never set). */
  state(channel: string): ChannelState | undefined;
}

/**
 * ExecArgs for calling an executor in-process, with sinks that record every call. Fields not
 * given default to an empty body, no target, no cwd and a fresh (never aborted) signal.
 */
export function recordingArgs(
  fields: Partial<Omit<ExecArgs, 'write' | 'setState' | 'emit'>> & { runtime: string },
  interact: (request: ClientInteractionRequest) => Promise<ClientInteractionResolution> = async () => ({
    status: 'cancelled',
  }),
): { args: ExecArgs; recording: Recording } {
  const events: Recording['events'] = [];
  const recording: Recording = {
    events,
    text: (channel) => events.map((e) => (e.kind === 'write' && e.channel === channel ? e.chunk : '')).join(''),
    state: (channel) =>
      events
        .filter((e) => e.kind === 'state' && e.channel === channel)
        .map((e) => (e as { state: ChannelState }).state)
        .at(-1),
  };
  const args: ExecArgs = {
    body: '',
    cwd: null,
    target: null,
    signal: new AbortController().signal,
    interact,
    ...fields,
    write: (channel, chunk, mimetype) =>
      void events.push({ kind: 'write', channel, chunk, ...(mimetype ? { mimetype } : {}) }),
    setState: (channel, state) => void events.push({ kind: 'state', channel, state }),
    emit: (notice) => void events.push({ kind: 'notice', notice }),
  };
  return { args, recording };
}
