// Run by a test as `node --max-old-space-size=160 small-heap-host.mjs <package-dir> <body>`:
// boots a host over one package in this small-heap process, runs one EXEC, and prints what
// the outcome holds. A host that keeps what it should not dies of heap exhaustion instead.
import { createHost } from '@plurnk/plurnk-execs/host';

const [dir, body] = process.argv.slice(2);
// A loaded machine moves 480 MiB slowly: silence is not what this run is judged on.
const host = await createHost({ packageDirs: [dir], limits: { graceMs: 300, unresponsiveMs: 300_000 } });
try {
  const [runtime] = host.availableRuntimes();
  const out = await host.exec({ runtime, body });
  const noticeBytes = out.notices.reduce((sum, notice) => sum + notice.message.length, 0);
  process.stdout.write(
    JSON.stringify({
      status: out.result.status,
      problem: out.result.problem?.detail,
      notices: out.notices.length,
      noticeBytes,
      violations: out.violations,
    }),
  );
} finally {
  await host.close();
}
