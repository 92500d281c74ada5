/**
 * The thread tier's public entry: what the front door (src/host) and the engine process
 * (src/engine) may use of it. Nothing else of src/thread-host is imported from outside it
 * (eslint.config.js holds the wall).
 */
export { bootThreadTier } from './boot-thread-tier.js';
export { admit, unusableTag } from './dispatch/admit.js';
export { liveOwners, type LiveOwners } from './ports/live-claims.js';
export { ENGINE_MAIN_THREAD, setRingPacing } from './ports/ring-pace.js';
export { isCredentialName, packageOwnedEnv, resolveErrorDetailLimit, workerBaseEnv } from './threads/worker-env.js';
