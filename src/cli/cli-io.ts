/** Where a command writes: the process's streams in `main`, captured buffers in embedders. */
export interface CliIo {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  /** Whether stderr is an interactive terminal (progress lines redraw in place). */
  stderrIsTTY: boolean;
  /** The working directory discovery starts from. */
  cwd: string;
  /** Reads all of standard input (for a body given as `-`). */
  readStdin(): Promise<string>;
}

/** One subcommand of `plurnk-execs`. Resolves the process exit code. */
export interface Command {
  readonly name: string;
  readonly summary: string;
  readonly usage: string;
  run(argv: string[], io: CliIo): Promise<number>;
}

/** Exit codes shared by every command. */
export const EXIT = { ok: 0, failed: 1, usage: 2, interrupted: 130 } as const;

/** The CliIo of the running process. */
export function processIo(): CliIo {
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    stderrIsTTY: process.stderr.isTTY === true,
    cwd: process.cwd(),
    async readStdin() {
      const chunks: Buffer[] = [];
      for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks).toString('utf8');
    },
  };
}
