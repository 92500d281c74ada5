import { readFileSync } from 'node:fs';
import { isPlurnkExecsError } from '../contracts/errors.js';
import { EXIT, type CliIo, type Command } from './cli-io.js';
import { isBundleFresh } from '../runtime/bundle-freshness.js';
import { packageRoot } from '../runtime/package-root.js';
import { isUsageError } from './parse-flags.js';

/**
 * Every command, loaded only when it runs (or for the general usage): importing them all — the
 * benchmarks, check — cost the CLI ~350 ms of module loading before `exec` began.
 */
const COMMANDS: readonly { readonly name: string; readonly load: () => Promise<Command> }[] = [
  { name: 'probe', load: async () => (await import('./probe-command.js')).probeCommand },
  { name: 'exec', load: async () => (await import(execCommandModule())).execCommand as Command },
  { name: 'doc', load: async () => (await import('./doc-command.js')).docCommand },
  { name: 'check', load: async () => (await import('./check-command.js')).checkCommand },
  { name: 'bench', load: async () => (await import('./bench-command.js')).benchCommand },
];

/** The exec command's bundle (scripts/bundle-thread.js), as a path under the package root. */
const EXEC_BUNDLE = 'dist/cli/bundle/exec-command.js';

/**
 * Where `exec` loads from: its bundle, one module and a chunk, where this CLI runs from dist/ and
 * the bundle is fresh (no module it holds is newer: a `tsc -b` alone never leaves it on stale
 * code); else its modules one by one. Run from src/ (under the tests), always the modules.
 */
export function execCommandModule(self = import.meta.url, root?: string): string {
  if (!self.endsWith('/dist/cli/run-cli.js')) return './exec-command.js';
  return isBundleFresh(root ?? packageRoot(), EXEC_BUNDLE) ? './bundle/exec-command.js' : './exec-command.js';
}

/**
 * Runs `plurnk-execs <command> …` and resolves the exit code. Usage mistakes print the
 * message and a pointer to `--help` (exit 2); this package's named errors print their
 * message (exit 1); anything else is a bug and prints its stack (exit 70).
 */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    if (name === undefined) return (void io.stderr.write(await generalUsage()), EXIT.usage);
    io.stdout.write(await generalUsage());
    return EXIT.ok;
  }
  if (name === '--version' || name === '-v') {
    io.stdout.write(`${packageVersion()}\n`);
    return EXIT.ok;
  }
  const entry = COMMANDS.find((candidate) => candidate.name === name);
  if (entry === undefined) {
    io.stderr.write(
      `plurnk-execs: unknown command ${JSON.stringify(name)}; commands: ${COMMANDS.map((c) => c.name).join(', ')}\n`,
    );
    return EXIT.usage;
  }
  const command = await entry.load();
  try {
    return await command.run(rest, io);
  } catch (error) {
    if (isUsageError(error)) {
      io.stderr.write(`plurnk-execs ${error.message}\nSee: plurnk-execs ${command.name} --help\n`);
      return EXIT.usage;
    }
    if (isPlurnkExecsError(error)) {
      io.stderr.write(`plurnk-execs ${command.name}: ${error.message}\n`);
      return EXIT.failed;
    }
    io.stderr.write(`plurnk-execs ${command.name}: unexpected failure\n${(error as Error)?.stack ?? String(error)}\n`);
    return 70;
  }
}

async function generalUsage(): Promise<string> {
  const commands = await Promise.all(COMMANDS.map((entry) => entry.load()));
  const width = Math.max(...commands.map((c) => c.name.length));
  const lines = commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`);
  return `Usage: plurnk-execs <command> [options]\n\nCommands:\n${lines.join('\n')}\n\nRun plurnk-execs <command> --help for a command's options.\n`;
}

function packageVersion(): string {
  const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    version: string;
  };
  return manifest.version;
}
