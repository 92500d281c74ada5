// Bundles an executor thread's start path (scripts/thread-root.js) into dist/worker/thread-root.js
// after `tsc -b`: Node's module loader costs a thread ~1 ms per module (71 of them), and valibot is
// tree-shaken to what the thread uses (docs/performance.md, "A thread's start in one module").
// Code only `discover()` loads stays in a chunk of its own, loaded on first call. The inputs
// modules of dist/ are listed beside the bundle: the host uses the bundle only while none is newer
// (src/thread-host/threads/thread-bundle.ts), so a `tsc -b` alone never leaves threads on stale code.
// (valibot's copy in the bundle is the bundle's own: where npm puts valibot does not matter.)
// The engine process's entry is bundled the same way, into dist/engine/bundle/engine-entry.js
// (three levels down, as deep as dist/thread-host/dispatch/leaf-stack.js, which finds the package
// root three levels up from itself):
// every package's engine loads it at each start (src/engine/engine-command.ts). piscina stays
// outside: it finds its own worker file beside itself. The CLI's `exec` command is bundled too,
// into dist/cli/bundle/exec-command.js (as deep again): `plurnk-execs exec` loads it from there
// while it is fresh (src/cli/run-cli.ts), where loading the host's ~140 modules one by one cost
// ~200 ms of a one-line EXEC's wall time against ~75 ms for the bundle.
import { readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { rolldown } from 'rolldown';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const OUT = join(ROOT, 'dist', 'worker');
const CHUNK = /^thread-chunk-.*\.js$/;

for (const name of readdirSync(OUT)) if (CHUNK.test(name)) rmSync(join(OUT, name));
await bundleInto(OUT, 'thread-root', join(ROOT, 'scripts', 'thread-root.js'), [/^node:/], 'thread-chunk');

// The engine's entry, and the CLI's exec command: piscina outside both.
const ENTRIES = [
  { dir: join(ROOT, 'dist', 'engine', 'bundle'), name: 'engine-entry', input: 'dist/engine/engine-entry.js' },
  { dir: join(ROOT, 'dist', 'cli', 'bundle'), name: 'exec-command', input: 'dist/cli/exec-command.js' },
];
for (const { dir, name, input } of ENTRIES) {
  rmSync(dir, { recursive: true, force: true });
  await bundleInto(dir, name, join(ROOT, input), [/^node:/, 'piscina'], `${name.split('-')[0]}-chunk`);
}

/** Bundles `input` into `<dir>/<name>.js` (and chunks), and lists the modules of dist/ it holds in `<name>.inputs.json`. */
async function bundleInto(dir, name, input, external, chunkPrefix) {
  const bundle = await rolldown({ input: { [name]: input }, platform: 'node', external, logLevel: 'warn' });
  const { output } = await bundle.write({
    dir,
    format: 'esm',
    entryFileNames: '[name].js',
    chunkFileNames: `${chunkPrefix}-[name]-[hash].js`,
    sourcemap: false,
    banner:
      '/*! @plurnk/plurnk-execs: built by scripts/bundle-thread.js; holds parts of valibot (MIT License, Copyright (c) Fabian Hiller). */',
  });
  await bundle.close();
  const inputs = new Set();
  for (const chunk of output)
    if (chunk.type === 'chunk')
      for (const id of chunk.moduleIds) if (id.startsWith(join(ROOT, 'dist'))) inputs.add(relative(ROOT, id));
  writeFileSync(join(dir, `${name}.inputs.json`), `${JSON.stringify([...inputs].sort(), null, 1)}\n`);
}
