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
  /** Resolves once the text written to `channel` contains `text` (checked on every write, no polling). */
  seen(channel: string, text: string): Promise<void>;
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
  const waiters: { channel: string; text: string; resolve: () => void }[] = [];
  const wake = () => {
    for (const waiter of [...waiters]) {
      if (!recording.text(waiter.channel).includes(waiter.text)) continue;
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.resolve();
    }
  };
  const recording: Recording = {
    events,
    text: (channel) => events.map((e) => (e.kind === 'write' && e.channel === channel ? e.chunk : '')).join(''),
    state: (channel) =>
      events
        .filter((e) => e.kind === 'state' && e.channel === channel)
        .map((e) => (e as { state: ChannelState }).state)
        .at(-1),
    seen: (channel, text) =>
      new Promise<void>((resolve) => {
        waiters.push({ channel, text, resolve });
        wake();
      }),
  };
  const args: ExecArgs = {
    body: '',
    cwd: null,
    target: null,
    signal: new AbortController().signal,
    interact,
    ...fields,
    write: (channel, chunk, mimetype) => {
      events.push({ kind: 'write', channel, chunk, ...(mimetype ? { mimetype } : {}) });
      wake();
    },
    setState: (channel, state) => void events.push({ kind: 'state', channel, state }),
    emit: (notice) => void events.push({ kind: 'notice', notice }),
  };
  return { args, recording };
}
