// Run by test/integration/engine/engine-sandbox.test.ts as the embedding service — as root, or
// as `nobody` through setpriv — with fd 40 inherited without close-on-exec and a secret in its
// environment: `node sandboxed-service.mjs '<json>'`. It boots a process-tier host whose `sh`
// runs try what issue 25's attacker did, and prints one JSON object: the host's isolation() and
// what each attempt got (status, output, what the engine's cgroup refused, how the run ended).
import { subscribe } from 'node:diagnostics_channel';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { createHost } from '@plurnk/plurnk-execs/host';

const { packageDirs, inside, outside, secret } = JSON.parse(process.argv[2]);
// A listener of the service's own on its loopback: an admin endpoint, say.
const listener = createServer((socket) => socket.destroy()).listen(0, '127.0.0.1');
await once(listener, 'listening');
const port = listener.address().port;

const host = await createHost({
  packageDirs,
  tags: ['sh', 'sync-buffer-bomb'],
  breaker: { crashes: 1000 },
  permissions: { fsWrite: [inside], network: false },
  // externalMb out of the way: the bomb below is the engine cgroup's to stop.
  limits: { engineMemoryMb: 256, enginePids: 64, externalMb: 1_000_000 },
});
// What the host publishes of each engine death: the bomb's must name the OOM killer.
const crashes = [];
subscribe('plurnk-execs:engine:crash', (event) =>
  crashes.push({ end: event.end, deathCause: event.deathCause ?? null }),
);
const run = async (runtime, body) => {
  const out = await host.exec({ runtime, body, env: { PATH: process.env.PATH ?? '/usr/bin:/bin' } });
  return {
    status: out.result.status,
    stdout: out.channels.stdout?.text ?? out.channels.out?.text ?? '',
    stderr: out.channels.stderr?.text ?? '',
    forcedEnd: out.containment?.forcedEnd ?? null,
    sandbox: out.containment?.sandbox ?? null,
  };
};
const report = { isolation: host.isolation() };
try {
  report.privileges = await run('sh', "grep -E '^(CapInh|CapPrm|CapEff|CapBnd|CapAmb|NoNewPrivs):' /proc/self/status");
  report.writes = await run('sh', `touch ${outside}/by-a-child; touch ${inside}/by-a-child && echo inside written`);
  report.devices = await run('sh', "ls /dev | tr '\\n' ' '");
  // The service's fd 40 is the `inside` directory: a process here whose fd 40 is that same file
  // (device and inode) holds it. Another fd 40 is the process's own (the engine has dozens).
  report.fds = await run(
    'sh',
    `service=$(stat -c %d:%i ${inside}); for p in $$ $PPID 1; do [ -e /proc/$p/fd/40 ] && [ "$(stat -L -c %d:%i /proc/$p/fd/40)" = "$service" ] && echo "$p holds the service's fd 40"; done; echo looked`,
  );
  // One unmount: a second would take the machine's /proc it uncovered, too.
  report.proc = await run(
    'sh',
    `umount /proc 2>/dev/null || umount -l /proc; echo "processes showing the secret: $(grep -l ${secret} /proc/[0-9]*/environ 2>/dev/null | wc -l)"`,
  );
  report.network = await run(
    'sh',
    `bash -c 'exec 3<>/dev/tcp/127.0.0.1/${port}' 2>/dev/null && echo connected || echo refused`,
  );
  if (report.isolation.cgroup !== null) {
    report.flood = await run('sh', 'i=0; while [ $i -lt 100 ]; do sleep 30 & i=$((i+1)); done; echo all 100 started');
    report.afterFlood = await run('sh', 'echo still serving');
    report.bomb = await run('sync-buffer-bomb', 'fault');
    report.afterBomb = await run('sync-buffer-bomb', 'ok');
  }
} finally {
  report.crashes = crashes;
  await host.close();
  listener.close();
}
process.stdout.write(JSON.stringify(report));
