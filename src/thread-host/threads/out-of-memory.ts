/** Node ends a thread that hits its `resourceLimits` heap with ERR_WORKER_OUT_OF_MEMORY: the host's one check for it. */
export function isOutOfMemory(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === 'ERR_WORKER_OUT_OF_MEMORY';
}
