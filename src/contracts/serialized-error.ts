/**
 * An error as it crosses a thread: structured clone drops an Error's own fields (`code`) and
 * turns unknown classes into plain `Error`, so both sides convert explicitly.
 */
export interface SerializedError {
  readonly name: string;
  readonly message: string;
  readonly code?: string;
  readonly stack?: string;
  readonly cause?: SerializedError;
}

/** How deep a `cause` chain is followed before it is cut. */
const MAX_CAUSE_DEPTH = 4;

/**
 * Converts anything thrown into a {@link SerializedError}. Never throws, even for hostile
 * values (getters that throw, proxies, cycles in `cause`).
 */
export function serializeError(value: unknown, depth = 0): SerializedError {
  try {
    if (typeof value !== 'object' || value === null) {
      return { name: 'NonError', message: describeThrown(value) };
    }
    const fields = value as { name?: unknown; message?: unknown; code?: unknown; stack?: unknown; cause?: unknown };
    const name = typeof fields.name === 'string' && fields.name !== '' ? fields.name : 'Error';
    const message = typeof fields.message === 'string' ? fields.message : describeThrown(value);
    const serialized: { -readonly [K in keyof SerializedError]: SerializedError[K] } = { name, message };
    if (typeof fields.code === 'string') serialized.code = fields.code;
    if (typeof fields.stack === 'string') serialized.stack = fields.stack;
    if (fields.cause !== undefined && depth < MAX_CAUSE_DEPTH)
      serialized.cause = serializeError(fields.cause, depth + 1);
    return serialized;
  } catch {
    return { name: 'NonError', message: 'an unreadable value was thrown' };
  }
}

/** `Name: message`, the form a Problem detail quotes (callers bound it with ErrorDetail). */
export function describeError(error: SerializedError): string {
  return error.message === '' ? error.name : `${error.name}: ${error.message}`;
}

/** Rebuilds an Error on this side of the thread with the serialized name, message, code and cause. */
export function deserializeError(error: SerializedError): Error {
  const options = error.cause === undefined ? undefined : { cause: deserializeError(error.cause) };
  const rebuilt = new Error(error.message, options) as Error & { code?: string };
  rebuilt.name = error.name;
  if (error.code !== undefined) rebuilt.code = error.code;
  if (error.stack !== undefined) rebuilt.stack = error.stack;
  return rebuilt;
}

function describeThrown(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'symbol') return value.toString();
  try {
    return String(value);
  } catch {
    return `a thrown ${typeof value}`;
  }
}
