import { judgeProbeCall, probeCall, probeTag, type ProbeOptions, type ProbeOutcome } from './probe-tag.js';
import { callInThread, type CallOutcome } from './threads/bounded-call.js';
import type { TagWorkers } from './threads/tag-workers.js';
import type { WorkerHandle } from './threads/worker-handle.js';

/** One tag of a package probed at boot, and its threads. */
export type PackageTag = readonly [tag: string, workers: TagWorkers];

/** Told each tag's verdict as it arrives. */
export type ReportProbe = (tag: string, outcome: ProbeOutcome) => void;

/**
 * Probes the tags of one leaf package in one thread, one after another (a thread per tag cost
 * an isolate and the leaf's module graph each: the common leaf's 14 tags were 14 threads at
 * boot). The thread is started for the first tag; each later probe constructs its own tag's
 * executor from the same module (the `probe` task's `as`). Each probe is the bounded call a
 * thread of its own gives it — its timeout counted from when it starts, its groups reaped at
 * its end — and each verdict is reported as it comes. Only one probe is in flight at a time, so
 * what goes wrong is the probe's in flight; but a fault a probe may have inherited from the
 * ones before (an error escaping, the thread dying, a later probe's load bound passing: a
 * timer left by an earlier probe can do each) is not charged to it: the thread is retired, and
 * that tag and every tag still without a verdict is probed again in a thread of its own
 * (probe-tag.ts), so one tag's fault costs only that tag. A probe timeout is charged to the
 * probe in flight (it had started), as is the first probe's load bound (the package's import).
 * The thread's death is never counted as a crash of its first tag. Never rejects.
 */
export async function probeTogether(tags: readonly PackageTag[], options: ProbeOptions, report: ReportProbe) {
  const alone = await probeInOneThread(tags, options, report);
  await Promise.all(alone.map(async ([tag, workers]) => report(tag, await probeTag(tag, workers, options))));
}

/** Probes `tags` in one thread until one fault ends it; returns the tags left to probe alone. */
async function probeInOneThread(
  tags: readonly PackageTag[],
  options: ProbeOptions,
  report: ReportProbe,
): Promise<readonly PackageTag[]> {
  const [owner, ownerWorkers] = tags[0]!;
  let handle: WorkerHandle;
  try {
    handle = await ownerWorkers.acquire('call');
  } catch {
    return tags;
  }
  ownerWorkers.chargeCrashes(handle, false);
  const retire = () => ownerWorkers.release(handle, { ranRun: false, poisoned: true });
  for (const [index, [tag, workers]] of tags.entries()) {
    const as = tag === owner ? undefined : { tag, glyph: workers.spec.boot.glyph };
    const call = await callInThread(handle, probeCall(options, as), (poisoned) => (poisoned ? retire() : undefined));
    const own = isOwnOutcome(call, index === 0);
    if (own) report(tag, judgeProbeCall(call, tag, options));
    if (call.kind === 'reply' && own) continue;
    // The thread is gone (a poisoned call retired it) or suspect: the rest are probed alone.
    if (call.kind === 'reply') await retire();
    return tags.slice(own ? index + 1 : index);
  }
  ownerWorkers.chargeCrashes(handle, true);
  await ownerWorkers.release(handle, { ranRun: false, poisoned: !KEEP_SHARED_THREAD });
  return [];
}

/**
 * True when how the call ended is certainly the probe's own: its reply (unless an error escaped,
 * which may come from an earlier probe's timer), its overrun once started, and the first probe's
 * load bound (nothing ran before it but the package's import).
 */
function isOwnOutcome(call: CallOutcome, first: boolean): boolean {
  if (call.kind === 'reply')
    return call.reply.ok || (call.reply.stage !== 'uncaught-exception' && call.reply.stage !== 'unhandled-rejection');
  return call.kind === 'call-timeout' || (call.kind === 'load-timeout' && first);
}

/** Whether the shared thread stays after boot as a warm spare of its first tag. */
const KEEP_SHARED_THREAD = true;
