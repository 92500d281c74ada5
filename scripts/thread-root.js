// The input of dist/worker/thread-root.js (scripts/bundle-thread.js): everything an executor
// thread loads at its start, as one module. A thread started with the `plurnk-execs-thread`
// condition resolves `@plurnk/plurnk-execs` to that bundle too, so its leaf and its task handler
// share one copy of every module (one BaseExecutor, one process-group registry, one
// PlurnkExecsError): the package root's surface, and the task handler beside it.
export * from '../dist/index.js';
export { createTaskHandler } from '../dist/worker/task-handler.js';
