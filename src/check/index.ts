/**
 * `@plurnk/plurnk-execs/check`: judges a leaf package against the contract by booting it in
 * an isolating host of its own (the CLI's `plurnk-execs check`), one package or a directory of them.
 */
export { checkPackage, CHECK_RUN_TIMEOUT_MS, type CheckOptions } from './check-package.js';
export { checkPackages, findLeafPackages } from './check-packages.js';
export {
  CONTRACT_CHECKS,
  TAG_VERDICTS,
  type CheckItem,
  type CheckReport,
  type CheckSetReport,
  type ContractChecks,
  type ExampleVerdict,
  type FileChanges,
  type RunFigures,
  type RunName,
  type TagCheck,
  type TagVerdict,
  type Verdict,
} from './check-report.js';
