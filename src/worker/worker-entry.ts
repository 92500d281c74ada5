import * as nodeModule from 'node:module';
import { isMainThread, workerData } from 'node:worker_threads';
import type { WorkerBoot } from '../contracts/protocol.js';
import type * as TaskHandler from './task-handler.js';

// Loaded by thread-start.cjs, the file piscina loads inside a thread the host started for one
// runtime tag; never imported by leaves or by the host itself.
if (isMainThread) {
  throw new Error(
    '@plurnk/plurnk-execs: worker-entry.js runs only inside an executor worker thread started by the host',
  );
}

// Every thread compiles this package and its leaf anew. Node ≥ 22.1 can keep V8's code cache on
// disk (os.tmpdir()/node-compile-cache, or NODE_COMPILE_CACHE; NODE_DISABLE_COMPILE_CACHE=1
// turns it off), so later threads skip most of that. It is a speed knob only: where Node has no
// such API, or the cache cannot be used, threads compile as before. Enabled before the task
// handler and the leaf are imported, so both are cached.
(nodeModule as { enableCompileCache?: () => unknown }).enableCompileCache?.();

// The host starts a thread with this condition when the bundled start path is built and fresh
// (thread-host/threads/thread-bundle.ts; the same name is in package.json's exports). The leaf then
// resolves `@plurnk/plurnk-execs` to thread-root.js, so the handler must come from there too:
// one module instead of ~70, and one copy of every module for the handler and the leaf. This file
// imports nothing of this package by value, so it loads neither copy itself.
const CONDITION = '--conditions=plurnk-execs-thread';
const bundled = process.execArgv.includes(CONDITION);
// A child the leaf forks inherits process.execArgv: it starts as any Node process would.
if (bundled) process.execArgv = process.execArgv.filter((flag) => flag !== CONDITION);
const source = bundled ? './thread-root.js' : './task-handler.js';

/** The handler piscina calls for every task posted to this thread (thread-start.cjs hands it over; piscina awaits it). */
export default (import(source) as Promise<typeof TaskHandler>).then(({ createTaskHandler }) =>
  createTaskHandler(workerData as WorkerBoot),
);
