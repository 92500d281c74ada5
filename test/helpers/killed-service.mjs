// Run by test/integration/engine/cgroup-sweep.test.ts as `node killed-service.mjs <package-dir>`:
// boots a process-tier host over one package, runs one EXEC so its engine is up in its
// cgroup, prints `ready`, and waits to be killed outright: it never closes the host.
import { setInterval } from 'node:timers';
import { createHost } from '@plurnk/plurnk-execs/host';

const [dir] = process.argv.slice(2);
const host = await createHost({ isolation: 'process', packageDirs: [dir] });
const out = await host.exec({ runtime: 'sh', body: 'true' });
process.stdout.write(out.result.status === 200 ? 'ready\n' : `not ready: ${JSON.stringify(out.result)}\n`);
// Held open until the SIGKILL.
setInterval(() => {}, 60_000);
