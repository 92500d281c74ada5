// `containment.usage`: what a run used, measured by the host in both tiers — the processes its
// thread started and the thread's peak memory as its heartbeats reported it.
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHost, type Host } from '../../../src/host/index.js';
import { scratchDir } from '../../helpers/scratch.js';
import { zooDirs } from '../../helpers/zoo.js';

const CHECK_FIXTURES = fileURLToPath(new URL('../../../fixtures/check', import.meta.url));
const LEAVES = ['writes-two-files-and-reaps-a-child', 'leaves-a-child-behind', 'exits-nonzero-by-design'];

describe.each(['thread', 'process'] as const)('containment.usage in the %s tier', (isolation) => {
  let host: Host;
  let cwd: string;
  beforeAll(async () => {
    cwd = scratchDir('run-usage');
    host = await createHost({
      isolation,
      packageDirs: [
        ...LEAVES.map((leaf) => `${CHECK_FIXTURES}/${leaf}`),
        ...zooDirs('healthy', 'host/exec-runs-a-short-child'),
      ],
      // Heartbeats well inside the 300 ms the two-files leaf waits for its child.
      limits: { heartbeatMs: 20 },
    });
  });
  afterAll(async () => {
    await host.close();
  });

  it('counts the child a run started and waited for, and the thread’s peak memory from its heartbeats', async () => {
    const out = await host.exec({ runtime: 'two-files', body: 'hi', cwd });
    expect(out.outcome).toBe('ok');
    expect(out.containment).toMatchObject({ reapedProcesses: 0, usage: { processesStarted: 1 } });
    // A worker thread's heap alone is megabytes; no thread reports less than one.
    expect(out.containment!.usage!.peakThreadBytes).toBeGreaterThan(1024 * 1024);
  });

  it('counts the child a run left behind as started, and as reaped by the host', async () => {
    const out = await host.exec({ runtime: 'leaves-a-child', body: 'x', cwd });
    expect(out.containment).toMatchObject({ reapedProcesses: 1, usage: { processesStarted: 1 } });
  });

  it('counts a child the thread could report only after it exited and was reaped, once', async () => {
    // execFileSync returns once `true` exited and was reaped: its group is gone when the report is judged.
    const out = await host.exec({ runtime: 'short-child', body: 'ok', cwd });
    expect(out.outcome).toBe('ok');
    expect(out.containment).toMatchObject({ reapedProcesses: 0, usage: { processesStarted: 1 } });
  });

  it('counts no process for a run that started none', async () => {
    const out = await host.exec({ runtime: 'healthy', body: 'ok', cwd });
    expect(out.containment).toMatchObject({ reapedProcesses: 0, usage: { processesStarted: 0 } });
  });
});
