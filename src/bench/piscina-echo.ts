import { isMainThread } from 'node:worker_threads';

// The handler of the dispatch scenario's piscina baseline: a 1-thread pool set up as the host
// sets up its own (atomics disabled), answering each task at once. Loaded only by piscina.
if (isMainThread) throw new Error('piscina-echo.js runs only inside the piscina pool the dispatch scenario starts');

/** Answers every task with its own value. */
export default function echo(task: unknown): unknown {
  return task;
}
