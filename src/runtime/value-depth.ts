/**
 * How deep a value sent to the host may nest. The host's main thread deserializes a message
 * on its own stack, which is smaller than a worker's: a result nested ~3,000 levels deep
 * cloned fine in the thread, and the host dropped it with nothing but a 'messageerror'.
 */
export const MAX_NESTING = 256;

/**
 * True when `value` nests objects or arrays more than `max` levels deep. Walks with an
 * explicit stack, so a deep value cannot overflow this thread's stack either; shared and
 * cyclic references are visited once.
 */
export function nestsDeeperThan(value: unknown, max = MAX_NESTING): boolean {
  const seen = new Set<object>();
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [current, depth] = stack.pop()!;
    if (typeof current !== 'object' || current === null || seen.has(current)) continue;
    if (depth >= max) return true;
    seen.add(current);
    const children =
      current instanceof Map
        ? [...current.keys(), ...current.values()]
        : current instanceof Set
          ? [...current]
          : Object.values(current);
    for (const child of children) if (typeof child === 'object' && child !== null) stack.push([child, depth + 1]);
  }
  return false;
}
