import * as v from 'valibot';

/**
 * Kinds of contract violation a thread itself refuses and reports over its control port: a
 * run that changed its ExecArgs, started a worker thread or a BroadcastChannel of its own
 * (`thread-ban`), signalled a process not its run's own (`forbidden-signal`), reached for the
 * host's main thread through the inspector or an internal binding (`main-thread`), or turned a
 * process-wide knob — the host's priority, V8 flags, stdin, fds 0–2, `process.report`
 * (`process-knob`) (§executor-forbidden); or notices past `limits.noticeBytes` (the thread
 * drops them before they cross; the host holds its own copy of the cap).
 */
export const THREAD_VIOLATION_KINDS = [
  'mutated-args',
  'thread-ban',
  'forbidden-signal',
  'main-thread',
  'process-knob',
  'notice-limit',
] as const;

/**
 * Every kind of {@link Violation}: a closed set, so a caller (`plurnk-execs check`, an
 * embedding service) judges a run by kind and never by the wording of `detail`.
 * - `undeclared-channel`: a write or state change on a channel the executor did not declare.
 * - `inactive-channel`: a write to a declared channel already closed or errored.
 * - `illegal-transition`: a state change other than active ⇒ closed or errored.
 * - `invalid-state`: setState with something that is not a channel state.
 * - `invalid-write`: a write whose chunk is not a string or whose mimetype is not a non-empty string.
 * - `invalid-notice`: emit with something that is not a notice.
 * - `invalid-interaction`: interact with something that is not an interaction request, or past the pending cap.
 * - `invalid-entry`: entry with arguments that are not (path, content, options).
 * - `malformed-sink-call`: a message on the sink port that is no sink call, or that the host could not read.
 * - `after-settle`: a sink call that arrived after `run()` settled.
 * - `console-output`: output through `console.*`, stdout or stderr instead of a declared channel.
 * - `embedding-sink`: the embedding service's own sink threw or answered nonsense (not the leaf's fault).
 * - `host-error`: the host itself failed to handle a sink call (not the leaf's fault).
 * - `foreign-process-group`: a process-group report the host refused, since the group is not
 *   provably the run's own (another run's, older than the run, or not the host's descendant).
 * - `mutated-args`, `thread-ban`, `forbidden-signal`, `main-thread`, `process-knob`, `notice-limit`
 *   (notices past `limits.noticeBytes`, dropped, recorded once per run): see {@link THREAD_VIOLATION_KINDS}.
 * - `truncated`: stands for the violations past the kept ones; its detail counts them.
 */
export const VIOLATION_KINDS = [
  'undeclared-channel',
  'inactive-channel',
  'illegal-transition',
  'invalid-state',
  'invalid-write',
  'invalid-notice',
  'invalid-interaction',
  'invalid-entry',
  'malformed-sink-call',
  'after-settle',
  'console-output',
  'embedding-sink',
  'host-error',
  'foreign-process-group',
  ...THREAD_VIOLATION_KINDS,
  'truncated',
] as const;

/** One of {@link VIOLATION_KINDS}. */
export type ViolationKind = (typeof VIOLATION_KINDS)[number];

/** A violation a thread reports: one of {@link THREAD_VIOLATION_KINDS}. */
export type ThreadViolationKind = (typeof THREAD_VIOLATION_KINDS)[number];

/** One contract violation the host refused: what kind it is, and a sentence for people. */
export interface Violation {
  readonly kind: ViolationKind;
  /** Human text naming the call and what was received; its wording may change, `kind` does not. */
  readonly detail: string;
}

/** Schema of a {@link ThreadViolationKind}: a thread may report nothing else. */
export const ThreadViolationKindSchema = v.picklist(THREAD_VIOLATION_KINDS);
