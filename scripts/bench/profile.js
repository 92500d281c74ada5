#!/usr/bin/env node
// `npm run bench:profile -- <workload> [runs] [--out <dir>]`: runs one workload under
// `node --cpu-prof` and prints where each kind of thread spent its time (docs/performance.md).
import { parseArgs } from 'node:util';
import { PROFILE_WORKLOADS } from '../../dist/bench/profile/profile-workloads.js';
import { formatProfile, runProfile } from '../../dist/bench/profile/run-profile.js';

const { values, positionals } = parseArgs({ options: { out: { type: 'string' } }, allowPositionals: true });
const [workload, runs] = positionals;
if (workload === undefined) {
  const names = Object.entries(PROFILE_WORKLOADS).map(([name, { summary }]) => `  ${name.padEnd(13)}${summary}`);
  process.stderr.write(`Usage: npm run bench:profile -- <workload> [runs] [--out <dir>]\n\n${names.join('\n')}\n`);
  process.exit(2);
}
const { out, groups, engineLogs } = await runProfile({
  workload,
  ...(runs === undefined ? {} : { runs: Number(runs) }),
  ...(values.out === undefined ? {} : { out: values.out }),
});
process.stdout.write(`${formatProfile(workload, groups, engineLogs)}\nProfiles: ${out}\n`);
