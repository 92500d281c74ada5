/**
 * `@plurnk/plurnk-execs/check`: judges a leaf package against the contract by booting it in
 * an isolating host of its own (the CLI's `plurnk-execs check`).
 */
export { checkPackage, CHECK_RUN_TIMEOUT_MS, type CheckOptions } from './check-package.js';
export {
  CONTRACT_CHECKS,
  TAG_VERDICTS,
  type CheckItem,
  type CheckReport,
  type ContractChecks,
  type ExampleVerdict,
  type FileChanges,
  type RunFigures,
  type RunName,
  type TagCheck,
  type TagVerdict,
  type Verdict,
} from './check-report.js';
