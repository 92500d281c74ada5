/**
 * The process tier's entry for the front door (src/host): booting it, and the environment its
 * engine process is given. The engine process's own entry is engine-entry.ts, which the tier
 * starts from dist/ (engine-command.ts).
 */
export { buildEngineEnv } from './engine-env.js';
export { prepareEngineStart } from './engine-command.js';
export { bootProcessTier } from './process-tier.js';
