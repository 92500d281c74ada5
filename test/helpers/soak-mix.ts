import type { ExecOutcome, ExecRequest } from '../../src/host/index.js';

/** One kind of run in the engine soak: what to send, and the leaf's own verdict on it. */
export interface SoakKind {
  readonly name: string;
  /** Relative share of the runs. */
  readonly weight: number;
  /** The request of run `i` (the soak adds the signal, the sinks and, for `sh`, the marker). */
  request(i: number): Omit<ExecRequest, 'signal' | 'sinks'>;
  /** The caller aborts the run as its first chunk reaches the service's sink. */
  readonly abortOnFirstWrite?: boolean;
  /** The leaf's own result: status, the Problem code its type ends with (none for 200), the outcome class. */
  readonly status: number;
  readonly problems?: readonly string[];
  readonly outcome: ExecOutcome['outcome'];
  /** Every channel's full text in run `i`'s own outcome. */
  channels(i: number): Record<string, string>;
}

const sh = (stdout: string, stderr = '') => ({ stdout, stderr });
const DAEMON = "setsid sh -c 'sleep 300' </dev/null >/dev/null 2>&1 &";

/**
 * The soak's mix: the built-in `sh` (through the common leaf), `jq` and `sqlite`, and zoo and
 * host fixtures, writing, failing, timing out, cancelled by the caller, and leaving a daemon
 * behind that only the engine's namespace (or close()) ends.
 */
export const SOAK_KINDS: readonly SoakKind[] = [
  {
    name: 'sh-echo',
    weight: 4,
    request: (i) => ({ runtime: 'sh', body: `echo run-${i}; echo to-stderr >&2` }),
    status: 200,
    outcome: 'ok',
    channels: (i) => sh(`run-${i}\n`, 'to-stderr\n'),
  },
  {
    name: 'sh-exit-3',
    weight: 1,
    request: (i) => ({ runtime: 'sh', body: `echo run-${i}; exit 3` }),
    status: 500,
    problems: ['nonzero-exit'],
    outcome: 'failed',
    channels: (i) => sh(`run-${i}\n`),
  },
  {
    name: 'sh-timeout',
    weight: 0.4,
    // The deadline leaves the shell time to write its line first: at 300 ms, a run that waited
    // for a restarted engine's thread timed out before `sh` had printed anything (CI, loaded).
    request: () => ({ runtime: 'sh', body: 'echo started; sleep 30', timeoutMs: 1000 }),
    status: 504,
    problems: ['execution-timeout'],
    outcome: 'timeout',
    channels: () => sh('started\n'),
  },
  {
    name: 'sh-cancelled',
    weight: 0.4,
    request: () => ({ runtime: 'sh', body: 'echo started; sleep 30' }),
    abortOnFirstWrite: true,
    status: 499,
    // The leaf's own 499, or the host's when the shell outlived the grace.
    problems: ['cancelled', 'execution-cancelled'],
    outcome: 'cancelled',
    channels: () => sh('started\n'),
  },
  {
    name: 'sh-daemon',
    weight: 0.3,
    request: () => ({ runtime: 'sh', body: `${DAEMON} echo started` }),
    status: 200,
    outcome: 'ok',
    channels: () => sh('started\n'),
  },
  {
    name: 'jq',
    weight: 2,
    request: (i) => ({ runtime: 'jq', body: `[${i}, 1] | add` }),
    status: 200,
    outcome: 'ok',
    channels: (i) => ({ results: `${i + 1}\n` }),
  },
  {
    name: 'jq-error',
    weight: 0.5,
    request: () => ({ runtime: 'jq', body: '.[' }),
    status: 500,
    problems: ['jq-error'],
    outcome: 'failed',
    channels: () => ({ results: '' }),
  },
  {
    name: 'sqlite',
    weight: 2,
    request: (i) => ({ runtime: 'sqlite', body: `select ${i} + 1 as n;` }),
    status: 200,
    outcome: 'ok',
    channels: (i) => ({ results: `[{"n":${i + 1}}]` }),
  },
  {
    name: 'healthy',
    weight: 3,
    request: (i) => ({ runtime: 'healthy', body: `ok ${i}` }),
    status: 200,
    outcome: 'ok',
    channels: (i) => ({ out: `ok ${i}` }),
  },
  {
    name: 'run-throws',
    weight: 1,
    request: () => ({ runtime: 'run-throws', body: 'fault' }),
    status: 500,
    problems: ['executor-threw'],
    outcome: 'leaf-fault',
    channels: () => ({ out: 'before the fault' }),
  },
  {
    name: 'ignores-abort-timeout',
    // A thread terminated and replaced per run: the costliest kind, so a rare one.
    weight: 0.15,
    request: () => ({ runtime: 'ignores-abort', body: 'fault', timeoutMs: 200 }),
    status: 504,
    problems: ['execution-timeout'],
    outcome: 'timeout',
    channels: () => ({ out: 'before the fault' }),
  },
  {
    name: 'wait-abort-cancelled',
    weight: 0.5,
    request: () => ({ runtime: 'wait-abort', body: 'x' }),
    abortOnFirstWrite: true,
    status: 499,
    // The leaf's own 499, or the host's when its answer came after the grace.
    problems: ['cancelled', 'execution-cancelled'],
    outcome: 'cancelled',
    channels: () => ({
      out: 'waiting\n{"reason":{"name":"AbortError","message":"This operation was aborted"}}',
    }),
  },
];

/** `count` kinds drawn by weight from `random`: the same seed, the same plan. */
export function planSoak(random: () => number, count: number): SoakKind[] {
  const total = SOAK_KINDS.reduce((sum, kind) => sum + kind.weight, 0);
  return Array.from({ length: count }, () => {
    let at = random() * total;
    return SOAK_KINDS.find((kind) => (at -= kind.weight) < 0) ?? SOAK_KINDS[0]!;
  });
}

/**
 * What is wrong with run `i`'s outcome, or undefined: it must be the leaf's own result with
 * every channel as the leaf wrote it, or (the engine died) 500 `engine-crashed` keeping a
 * prefix of that output, or 503 `engine-unavailable`. Either way the outcome's channels are
 * exactly what the service's sinks received.
 */
export function judgeSoakRun(
  kind: SoakKind,
  i: number,
  out: ExecOutcome,
  sunk: Record<string, string>,
): string | undefined {
  const expected = kind.channels(i);
  const texts = Object.fromEntries(Object.entries(out.channels).map(([name, channel]) => [name, channel.text]));
  const code = out.result.problem?.type.split('/').at(-1);
  const detail = out.result.problem?.detail;
  const seen = JSON.stringify({ status: out.result.status, code, detail, outcome: out.outcome, texts, sunk });
  const wrong = (why: string) => `run ${i} (${kind.name}): ${why}; got ${seen}`;
  for (const [name, text] of Object.entries(texts))
    if ((sunk[name] ?? '') !== text) return wrong(`channel ${name} differs from what the sinks received`);
  if (code === 'engine-unavailable') return out.result.status === 503 ? undefined : wrong('a 503 expected');
  if (code === 'engine-crashed') {
    if (out.result.status !== 500 || out.containment?.forcedEnd?.reason !== 'engine-crashed')
      return wrong('500 with forcedEnd engine-crashed expected');
    for (const [name, text] of Object.entries(texts))
      if (!(expected[name] ?? '').startsWith(text))
        return wrong(`channel ${name} is not a prefix of the leaf's output`);
    return undefined;
  }
  if (out.result.status !== kind.status || out.outcome !== kind.outcome) return wrong('not the leaf’s own result');
  if (kind.problems === undefined ? code !== undefined : !kind.problems.includes(code ?? ''))
    return wrong(`Problem ${kind.problems?.join(' or ') ?? 'none'} expected`);
  if (sorted(texts) !== sorted(expected)) return wrong(`channels ${JSON.stringify(expected)} expected`);
  return undefined;
}

function sorted(texts: Record<string, string>): string {
  return JSON.stringify(Object.entries(texts).sort(([a], [b]) => a.localeCompare(b)));
}
