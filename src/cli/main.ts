#!/usr/bin/env node
// The `plurnk-execs` binary: everything lives in runCli so it can be driven without a process.
import { processIo } from './cli-io.js';
import { runCli } from './run-cli.js';

process.exitCode = await runCli(process.argv.slice(2), processIo());
