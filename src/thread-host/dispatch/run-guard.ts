import type { Limits } from '../../contracts/limits.js';
import { utf8Prefix } from '../../contracts/output-budget.js';
import { type WorkerControlMessage } from '../../contracts/protocol.js';
import { watchHeartbeat } from '../threads/heartbeat.js';
import type { RunEndReason } from '../../model/fault-kinds.js';
import type { RunContainment } from '../../model/host-types.js';
import { checkReportedMemory, type HostMemoryWatch } from '../threads/memory-watchdog.js';
import type { RunStream } from '../ports/run-stream.js';
import type { SharedTicker } from '../../runtime/shared-ticker.js';

/** A limit a run broke: the Problem code it settles with, and which limit as a run-end reason. */
export interface RunFault {
  readonly code: 'executor-unresponsive' | 'memory-limit-exceeded' | 'output-limit-exceeded';
  readonly reason: Extract<RunEndReason, 'unresponsive' | 'external-limit' | 'rss-limit' | 'output-limit'>;
  readonly detail: string;
  /** True when the host could not be sure this run caused it (an RSS kill with other runs in flight): not a crash of its tag. */
  readonly uncertain?: boolean;
}

/** The host's watch over one run in one thread. */
export interface RunGuard {
  /** Every control message of the run's task goes here. */
  onMessage(message: WorkerControlMessage): void;
  /** Resolves when the thread must be terminated at once: it stopped answering, or its memory is over a limit. */
  readonly fatal: Promise<RunFault>;
  /** The first limit the run broke, if any: it decides the run's result. */
  fault(): RunFault | undefined;
  /** The run posted past its sink-message budget (the host's count): ended like an output overflow. */
  messageOverflow(): void;
  /** Console output the thread reported for the run. */
  console(): RunContainment['console'];
  /** The largest footprint (heap plus external bytes) the thread reported in a heartbeat of the run; null before the first. */
  peakFootprint(): number | null;
  dispose(): void;
}

/**
 * Holds one run to the host's limits. Output past `outputBytes` (reported by the worker's cap
 * or caught by the stream's own) latches `output-limit-exceeded` and calls `interrupt`, so the
 * leaf is aborted like a timed-out run and gets the grace to stop its processes. Silence past
 * `unresponsiveMs` (`executor-unresponsive`) and memory past `externalMb` or the host's RSS cap
 * (`memory-limit-exceeded`) resolve `fatal`: neither is helped by waiting. The first fault wins.
 */
export function guardRun(options: {
  /** The host's limits, whole. */
  limits: Limits;
  /** How long the thread may take to acknowledge the run (a leaf still loading: `loadTimeoutMs`). */
  ackMs: number;
  stream: RunStream;
  memory: HostMemoryWatch;
  /** The host's heartbeat ticker, shared by every run's watch. */
  heartbeats: SharedTicker;
  interrupt: () => void;
  /** The run starts as it is posted (its thread's leaf is loaded, so the thread sends no `started`). */
  started?: boolean;
}): RunGuard {
  const { limits, stream, memory, interrupt } = options;
  let first: RunFault | undefined;
  let printed: RunContainment['console'] = null;
  let footprint = 0;
  let peak: number | null = null;
  let resolveFatal!: (fault: RunFault) => void;
  const fatal = new Promise<RunFault>((resolve) => (resolveFatal = resolve));
  const latch = (fault: RunFault) => {
    first ??= fault;
    return first === fault;
  };
  const kill = (fault: RunFault) => {
    if (latch(fault)) resolveFatal(fault);
  };
  const overflow = () => {
    if (
      latch({
        code: 'output-limit-exceeded',
        reason: 'output-limit',
        detail: `the run wrote more than limits.outputBytes ${limits.outputBytes} bytes; the output up to the limit is kept`,
      })
    )
      interrupt();
  };
  stream.capOutput(limits.outputBytes, overflow);
  const messageOverflow = () => {
    if (
      latch({
        code: 'output-limit-exceeded',
        reason: 'output-limit',
        detail: `the run posted more than ${limits.sinkMessages} sink messages (limits.sinkMessages), each applied on the host's main thread; later sink calls were dropped`,
      })
    )
      interrupt();
  };
  const heartbeat = watchHeartbeat({
    ackMs: options.ackMs,
    unresponsiveMs: limits.unresponsiveMs,
    ticker: options.heartbeats,
    onSilent: (detail) => kill({ code: 'executor-unresponsive', reason: 'unresponsive', detail }),
  });
  if (options.started === true) heartbeat.started();
  const unwatch = memory.add({
    footprint: () => footprint,
    silentFor: () => heartbeat.silentFor(),
    kill: (detail, certain) =>
      kill(
        certain
          ? { code: 'memory-limit-exceeded', reason: 'rss-limit', detail }
          : { code: 'memory-limit-exceeded', reason: 'rss-limit', detail, uncertain: true },
      ),
  });

  return {
    onMessage(message) {
      heartbeat.heard();
      switch (message.type) {
        case 'started':
          return heartbeat.started();
        case 'heartbeat': {
          footprint = message.memory.heapUsed + message.memory.external;
          peak = Math.max(peak ?? 0, footprint);
          const over = checkReportedMemory(message.memory, limits.externalMb);
          return over === undefined
            ? undefined
            : kill({ code: 'memory-limit-exceeded', reason: 'external-limit', detail: over });
        }
        case 'output-limit':
          return overflow();
        case 'message-limit':
          return messageOverflow();
        case 'console':
          printed = {
            bytes: (printed?.bytes ?? 0) + message.bytes,
            text: utf8Prefix((printed?.text ?? '') + message.text, limits.consoleBytes),
          };
          return stream.violate(
            'console-output',
            `console output: the leaf printed ${message.bytes} bytes through console.*, stdout or stderr instead of writing to a declared channel; the host did not print them (containment.console keeps the first)`,
          );
        case 'violation':
          return stream.violate(message.kind, message.message);
        default:
          return;
      }
    },
    fatal,
    fault: () => first,
    messageOverflow,
    console: () => printed,
    peakFootprint: () => peak,
    dispose() {
      heartbeat.dispose();
      unwatch();
    },
  };
}
