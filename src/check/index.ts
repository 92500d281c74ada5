/**
 * `@plurnk/plurnk-execs/check`: judges one leaf package against the contract by booting it in
 * an isolating host of its own (the CLI's `plurnk-execs check`).
 */
export { checkPackage, type CheckOptions } from './check-package.js';
export type { CheckItem, CheckReport, ContractChecks, TagCheck, Verdict } from './check-report.js';
