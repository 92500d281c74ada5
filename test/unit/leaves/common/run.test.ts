import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { liveOrUnavailable, unavailableNote } from '../../../helpers/interpreter-branch.js';
import { hostFor, problemCodeOf, runTag } from '../leaf-harness.js';

// Every interpreter Debian packages (CI installs them in .ci/run) runs live: once with the body
// as the program, once with a target program that doubles the number the body feeds its stdin.
// Where one is not installed, its tests take the "unavailable" branch instead (a 501 naming
// what to install): the README does not ask a new machine for ruby, php, lua, tcl or bc.
const LIVE: { tag: string; inline: string; script: string }[] = [
  { tag: 'sh', inline: 'echo $((6 * 7))', script: 'read n; echo $((n * 2))' },
  { tag: 'bash', inline: 'echo $((6 * 7))', script: 'read n; echo $((n * 2))' },
  {
    tag: 'node',
    inline: 'console.log(6 * 7)',
    script: "let s = ''; process.stdin.on('data', (d) => (s += d)).on('end', () => console.log(Number(s) * 2));",
  },
  { tag: 'python', inline: 'print(6 * 7)', script: 'import sys\nprint(int(sys.stdin.read()) * 2)\n' },
  { tag: 'python3', inline: 'print(6 * 7)', script: 'import sys\nprint(int(sys.stdin.read()) * 2)\n' },
  { tag: 'perl', inline: 'print 6 * 7, "\\n"', script: 'my $n = <STDIN>; print $n * 2, "\\n";\n' },
  { tag: 'ruby', inline: 'puts 6 * 7', script: 'puts STDIN.read.to_i * 2\n' },
  {
    tag: 'php',
    inline: 'echo 6 * 7, PHP_EOL;',
    script: '<?php echo intval(file_get_contents("php://stdin")) * 2, PHP_EOL;\n',
  },
  { tag: 'lua', inline: 'print(6 * 7)', script: 'print(io.read("n") * 2)\n' },
  { tag: 'tcl', inline: 'puts [expr {6 * 7}]', script: 'gets stdin n; puts [expr {$n * 2}]\n' },
  { tag: 'bc', inline: '6 * 7', script: 'x = read()\nx * 2\n' },
  { tag: 'awk', inline: 'BEGIN { print 6 * 7 }', script: '{ print $1 * 2 }\n' },
];

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'leaf-common-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** The test `title` of `tag`: live where its interpreter is installed, else its "unavailable" branch. */
function liveTest(tag: string, title: string, live: () => Promise<void>): void {
  it(`${tag} ${title}${unavailableNote(tag)}`, () => liveOrUnavailable(tag, hostFor('common'), live));
}

describe('common leaf, live interpreters', () => {
  for (const { tag, inline } of LIVE) {
    liveTest(tag, 'runs its body as the program', async () => {
      const run = await runTag(tag, { body: inline });
      expect(run.result).toEqual({ status: 200, exitCode: 0 });
      expect(run.channel('stdout')).toEqual({ mimetype: 'text/stream', state: 'closed', text: '42\n' });
      expect(run.channel('stderr')).toEqual({ mimetype: 'text/stream', state: 'closed', text: '' });
    });
  }

  for (const { tag, script } of LIVE) {
    liveTest(tag, 'runs a target program with the body as its stdin', async () => {
      // sh and bash take a command line as the target; the others a script file relative to cwd.
      const shell = tag === 'sh' || tag === 'bash';
      const target = shell ? script : `double-${tag}.src`;
      if (!shell) await writeFile(join(dir, target), script);
      // A HOME of the run's own: fed on a socket, bash takes itself for an sshd login and sources
      // ~/.bashrc, whose tools (pyenv here) may write to a home the engine's view keeps read-only.
      const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir };
      const run = await runTag(tag, { body: '21\n', target, cwd: dir, env });
      expect(run.channel('stderr').text).toBe('');
      expect(run.channel('stdout').text).toBe('42\n');
      expect(run.result.status).toBe(200);
    });
  }

  it('awk reads empty input when it has no target, so a main rule never fires', async () => {
    const run = await runTag('awk', { body: '{ print "line" } END { print NR }' });
    expect(run.channel('stdout').text).toBe('0\n');
  });

  // bc and tcl get a trailing newline, so a body without one still runs its last line.
  liveTest('bc', 'runs a last line that has no newline', async () => {
    expect((await runTag('bc', { body: '2 ^ 10' })).channel('stdout').text).toBe('1024\n');
  });

  liveTest('tcl', 'runs a last line that has no newline', async () => {
    expect((await runTag('tcl', { body: 'puts done' })).channel('stdout').text).toBe('done\n');
  });

  it('a nonzero exit is a 500 nonzero-exit with the exit code, and stderr keeps the diagnostic', async () => {
    const run = await runTag('sh', { body: 'echo broken >&2; exit 3' });
    expect(run.result.status).toBe(500);
    expect(run.result.exitCode).toBe(3);
    expect(problemCodeOf(run.result)).toBe('nonzero-exit');
    expect(run.channel('stderr')).toMatchObject({ state: 'errored', text: 'broken\n' });
    expect(run.channel('stdout').state).toBe('errored');
  });

  it('the child gets exactly args.env', async () => {
    const run = await runTag('node', {
      body: 'console.log(JSON.stringify([process.env.ONLY_THIS, process.env.HOME ?? null]))',
      env: { PATH: process.env.PATH, ONLY_THIS: 'yes' },
    });
    expect(run.channel('stdout').text).toBe('["yes",null]\n');
  });

  liveTest('python3', 'runs a script path that starts with "-" as a file, not reading it as an option', async () => {
    await writeFile(join(dir, '-dash.py'), 'print("ran")\n');
    const run = await runTag('python3', { target: '-dash.py', cwd: dir });
    expect(run.channel('stdout').text).toBe('ran\n');
  });

  it('an awk program that starts with "-" is the program, not an option', async () => {
    const run = await runTag('awk', { body: '-1 { } BEGIN { print "ok" }' });
    expect(run.channel('stdout').text).toBe('ok\n');
  });
});
