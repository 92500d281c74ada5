import * as v from 'valibot';

/** A JSON value: what may cross the thread boundary and be stored without loss. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/**
 * True when `value` is plain JSON: primitives with finite numbers, dense arrays and objects
 * whose prototype is Object.prototype or null. No cycles, functions, symbols, class instances.
 */
export function isJsonValue(value: unknown, seen: Set<object> = new Set()): value is JsonValue {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true;
  if (typeof value === 'number') return Number.isFinite(value);
  if (typeof value !== 'object') return false;
  if (seen.has(value)) return false;
  seen.add(value);
  try {
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) {
        if (!(i in value) || !isJsonValue(value[i], seen)) return false;
      }
      return true;
    }
    const proto = Object.getPrototypeOf(value);
    if (proto !== Object.prototype && proto !== null) return false;
    for (const key of Reflect.ownKeys(value)) {
      if (typeof key !== 'string') return false;
      const desc = Object.getOwnPropertyDescriptor(value, key);
      if (!desc || !('value' in desc) || !isJsonValue(desc.value, seen)) return false;
    }
    return true;
  } finally {
    seen.delete(value);
  }
}

/** Schema for {@link JsonValue}. */
export const JsonValueSchema: v.GenericSchema<JsonValue> = v.custom<JsonValue>(
  (input) => isJsonValue(input),
  'Expected a plain JSON value',
);

/** A plain JSON object (not an array, not null). */
export type JsonObject = { [key: string]: JsonValue };

/** Schema for {@link JsonObject}. */
export const JsonObjectSchema: v.GenericSchema<JsonObject> = v.custom<JsonObject>(
  (input) => typeof input === 'object' && input !== null && !Array.isArray(input) && isJsonValue(input),
  'Expected a plain JSON object',
);
