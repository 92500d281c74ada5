import { readFileSync } from 'node:fs';
import { PlurnkExecsError } from '../contracts/errors.js';
import type { ThreadViolationKind } from '../contracts/violation.js';

/** Records one refused attempt for the host (a violation on the running task, or the thread's). */
export type Report = (kind: ThreadViolationKind, message: string) => void;

/** Reports `message` and throws it in the leaf as a `forbidden` PlurnkExecsError. */
export type Refuse = (message: string) => never;

/** The refusal a guard uses for violations of `kind`: the leaf sees the named error, the host sees the violation. */
export function createRefusal(report: Report, kind: ThreadViolationKind): Refuse {
  return (message) => {
    report(kind, message);
    throw new PlurnkExecsError('forbidden', message);
  };
}

/**
 * Puts `value` at `target[key]` as a non-writable, non-configurable property, so leaf code can
 * neither assign over a guard nor delete it to uncover the original. A property that is
 * already non-configurable keeps its shape and is assigned instead.
 */
export function lockProperty(target: object, key: PropertyKey, value: unknown): void {
  const current = Object.getOwnPropertyDescriptor(target, key);
  if (current !== undefined && !current.configurable) {
    (target as Record<PropertyKey, unknown>)[key] = value;
    return;
  }
  Object.defineProperty(target, key, {
    value,
    writable: false,
    enumerable: current?.enumerable ?? true,
    configurable: false,
  });
}

/** A short, safe description of a value a leaf passed (never throws, never long). */
export function describeArgument(value: unknown): string {
  if (typeof value === 'number') return String(value);
  if (typeof value === 'string') return JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…` : value);
  return value === null ? 'null' : typeof value;
}

// Intrinsics the guards call, captured when this module loads — before any leaf code — and
// bound, so a leaf that replaces String.prototype.split or fs.readFileSync cannot steer a check.
const call = Function.prototype.call;
const bindCall = <F extends (...args: never[]) => unknown>(method: F) =>
  call.bind(method) as unknown as (self: unknown, ...args: Parameters<F>) => ReturnType<F>;
const stringSlice = bindCall(String.prototype.slice);
const stringSplit = bindCall(String.prototype.split as (separator: string) => string[]);
const stringLastIndexOf = bindCall(String.prototype.lastIndexOf);
const stringIncludes = bindCall(String.prototype.includes);
const stringIndexOf = bindCall(String.prototype.indexOf);
/** `String.prototype.startsWith`, as it was before any leaf loaded. */
export const stringStartsWith = bindCall(String.prototype.startsWith);
/** `Array.isArray` and `Object.keys`, as they were before any leaf loaded. */
export const isArray = Array.isArray;
export const objectKeys = Object.keys;
const readText = readFileSync as (path: string, encoding: 'utf8') => string;
/** This process, as it was when the guards loaded. */
export const HOST_PID = process.pid;

/** What the guards use of one process's `/proc/<pid>/stat` (its start time in clock ticks since boot). */
export interface ProcStat {
  readonly state: string;
  readonly ppid: number;
  readonly pgrp: number;
  readonly startTicks: number;
}

/** Process `pid`'s {@link ProcStat}, or undefined when it is gone, being reaped, or unreadable. */
export function readProcStat(pid: number): ProcStat | undefined {
  let text: string;
  try {
    text = readText(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  return parseProcStat(text);
}

/**
 * The {@link ProcStat} in the text of a `/proc/<pid>/stat`, or undefined when it shows group -1:
 * its parent is reaping it (runtime/proc-table.ts's parseProcStat says why), so it is gone.
 */
export function parseProcStat(text: string): ProcStat | undefined {
  // The command name is parenthesised and may hold spaces or parentheses: split after the last ')'.
  const fields = stringSplit(stringSlice(text, stringLastIndexOf(text, ')') + 2), ' ');
  const pgrp = +(fields[2] ?? 0);
  if (!(pgrp >= 0)) return undefined;
  return { state: fields[0] ?? '', ppid: +(fields[1] ?? 0), pgrp, startTicks: +(fields[19] ?? 0) };
}

/** Now in clock ticks since boot (USER_HZ 100, the unit of a start time), or 0 when /proc cannot tell. */
export function ticksSinceBoot(): number {
  let text: string;
  try {
    text = readText('/proc/uptime', 'utf8');
  } catch {
    return 0;
  }
  const ticks = Math.floor(+(stringSplit(text, ' ')[0] ?? '') * 100);
  return ticks > 0 ? ticks : 0;
}

// Captured before any leaf loads: a leaf could replace performance.now.
const monotonicNow = performance.now.bind(performance);

/**
 * "Now" in ticks since boot, read from /proc only if it is ever asked for (most tasks start no
 * process, and the read cost a file read per task); a late reading subtracts the monotonic time
 * elapsed since this call, which never makes it earlier than "now" was (boot time also counts suspend).
 */
export function markTicksSinceBoot(): () => number {
  const markedAt = monotonicNow();
  let ticks = -1;
  return () => {
    if (ticks >= 0) return ticks;
    const current = ticksSinceBoot();
    ticks = current === 0 ? 0 : Math.max(0, current - Math.floor((monotonicNow() - markedAt) / 10));
    return ticks;
  };
}

/** True when process `pid`'s environment holds `name=value`. */
export function carriesMarker(pid: number, name: string, value: string): boolean {
  try {
    return stringIncludes(`\0${readText(`/proc/${pid}/environ`, 'utf8')}`, `\0${name}=${value}\0`);
  } catch {
    return false;
  }
}

/** The value of `name` in process `pid`'s environment, or undefined (unset, or the process unreadable). */
export function environValue(pid: number, name: string): string | undefined {
  let environ: string;
  try {
    environ = `\0${readText(`/proc/${pid}/environ`, 'utf8')}`;
  } catch {
    return undefined;
  }
  const start = stringIndexOf(environ, `\0${name}=`);
  if (start === -1) return undefined;
  const from = start + name.length + 2;
  const end = stringIndexOf(environ, '\0', from);
  return stringSlice(environ, from, end === -1 ? environ.length : end);
}

/** True when `pid` descends from this process (its parent chain reaches `process.pid`). */
export function descendsFromThisProcess(pid: number): boolean {
  const self = HOST_PID;
  let current = pid;
  for (let depth = 0; depth < 64 && current > 1; depth++) {
    const stat = readProcStat(current);
    if (stat === undefined) return false;
    if (stat.ppid === self) return true;
    current = stat.ppid;
  }
  return false;
}
