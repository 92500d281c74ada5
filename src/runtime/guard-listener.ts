/**
 * Wraps an event listener so that nothing it throws escapes: a throw from a port or worker
 * listener reaches the process's last-resort handler, which kills the host. The failure is
 * handed to `onThrow` (which records it as a violation, say); if that throws too, it is dropped.
 */
export function guardListener<A extends unknown[]>(
  listener: (...args: A) => void,
  onThrow: (error: unknown) => void = () => {},
): (...args: A) => void {
  return (...args) => {
    try {
      listener(...args);
    } catch (error) {
      try {
        onThrow(error);
      } catch {
        // The recorder failed as well: dropping is all that is left that cannot crash the host.
      }
    }
  };
}

/** `Name: message` of anything thrown, for a violation text; never throws. */
export function describeThrow(error: unknown): string {
  try {
    return error instanceof Error ? `${error.name}: ${error.message}` : `a thrown ${typeof error}`;
  } catch {
    return 'an unreadable error';
  }
}
