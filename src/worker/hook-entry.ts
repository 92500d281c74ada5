import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import type { HookBoot } from '../contracts/hook-protocol.js';
import { callHook } from './call-hook.js';
import { newRunMarker } from '../runtime/run-marker.js';
import { installThreadGuards } from './thread-guards.js';

// The one-shot thread a package's runtimesModule hook runs in, so that a hook stuck in a
// synchronous loop, or one that calls process.exit(), cannot take the host with it.
if (isMainThread || parentPort === null) {
  throw new Error('@plurnk/plurnk-execs: hook-entry.js runs only inside the hook thread discovery starts');
}
const port = parentPort;
const boot = workerData as HookBoot;

// The executor threads' guards hold here too, before the hook module loads. A refusal is an
// error the hook sees (discovery fails invalid-hook with it unless the hook catches it); the
// hook's children carry its marker, and discovery kills them once the hook answered.
installThreadGuards({ threadMarker: boot.marker ?? newRunMarker(), report: () => {}, reportGroup: () => {} });

// A hook whose promise never settles leaves nothing to run: without a handle the thread would
// end with nothing said, and the host must see it overrun its timeout instead.
const keepAlive = setInterval(() => {}, 60_000);
void callHook(boot).then((reply) => {
  clearInterval(keepAlive);
  port.postMessage(reply);
});
