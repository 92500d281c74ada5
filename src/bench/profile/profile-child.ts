import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROFILE_WORKLOADS, WINDOW_FILE } from './profile-workloads.js';

// Started by run-profile.ts under `node --cpu-prof`: runs one workload, then exits so every
// thread's profile is written. Never imported.
const [name, runs, cwd, out] = process.argv.slice(2);
const workload = PROFILE_WORKLOADS[name as keyof typeof PROFILE_WORKLOADS];
const windows = await workload.run(Number(runs), cwd!);
writeFileSync(join(out!, WINDOW_FILE), JSON.stringify(windows));
