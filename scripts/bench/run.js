#!/usr/bin/env node
// `npm run bench [-- <scenario>… --json --quick]`: the CLI's `plurnk-execs bench`, on the
// compiled code (npm run build first).
import { processIo } from '../../dist/cli/cli-io.js';
import { runCli } from '../../dist/cli/run-cli.js';

process.exitCode = await runCli(['bench', ...process.argv.slice(2)], processIo());
