/** How one interpreter tag is found, versioned and invoked. */
export interface Recipe {
  /** Binaries tried in order on PATH; the first one found runs the tag. */
  readonly binaries: readonly string[];
  /** What to do when none is found (the tail of the probe detail). */
  readonly install: string;
  /** A cheap way to print a version line; absent when the interpreter has none. */
  readonly version?: { readonly args: readonly string[]; readonly stdin?: string };
  /** Argv (after the binary) and stdin for a body run without a target. */
  inline(body: string): { args: string[]; stdin?: string };
  /** Argv (after the binary) that runs `target` as the program; the body becomes its stdin. */
  program(target: string): string[];
}

const VERSION = { args: ['--version'] } as const;

/** `-e BODY` / `-c BODY` style interpreters: the body is one argv word; a target is a script path. */
function flagged(
  binaries: readonly string[],
  flag: string,
  install: string,
  version: Recipe['version'] = VERSION,
): Recipe {
  return {
    binaries,
    install,
    version,
    inline: (body) => ({ args: [flag, body] }),
    program: (target) => [scriptPath(target)],
  };
}

/** Shells: the body or the target is a command line for `-c`. Dash has no version flag. */
function shell(binary: string, install: string, version?: Recipe['version']): Recipe {
  return {
    binaries: [binary],
    install,
    ...(version ? { version } : {}),
    inline: (body) => ({ args: ['-c', body] }),
    program: (target) => ['-c', target],
  };
}

/** Interpreters that read their program on stdin; a missing final newline would drop the last line. */
function stdinFed(binary: string, flags: string[], install: string, version: Recipe['version']): Recipe {
  return {
    binaries: [binary],
    install,
    version,
    inline: (body) => ({ args: [...flags], stdin: body.endsWith('\n') ? body : `${body}\n` }),
    program: (target) => [...flags, scriptPath(target)],
  };
}

const python = flagged(['python3'], '-c', 'apt-get install python3');

/**
 * Every tag this package claims, keyed by tag (§executor-subprocess-routing). `python` and
 * `python3` both run `python3`; `lua` runs `lua5.4` when PATH has it, else `lua`.
 */
export const RECIPES: Readonly<Record<string, Recipe>> = Object.freeze({
  sh: shell('sh', 'apt-get install dash'),
  bash: shell('bash', 'apt-get install bash', VERSION),
  node: flagged(['node'], '-e', 'install Node.js 20 or later'),
  python,
  python3: python,
  perl: flagged(['perl'], '-e', 'apt-get install perl', { args: ['-e', 'print "perl $^V\\n"'] }),
  ruby: flagged(['ruby'], '-e', 'apt-get install ruby'),
  php: flagged(['php'], '-r', 'apt-get install php-cli'),
  lua: flagged(['lua5.4', 'lua'], '-e', 'apt-get install lua5.4', { args: ['-v'] }),
  deno: {
    binaries: ['deno'],
    install: 'npm install -g deno',
    version: VERSION,
    inline: (body) => ({ args: ['eval', body] }),
    // `deno eval` runs with every permission; a script gets the same so the two forms agree.
    program: (target) => ['run', '-A', scriptPath(target)],
  },
  bun: {
    binaries: ['bun'],
    install: 'npm install -g bun',
    version: VERSION,
    inline: (body) => ({ args: ['-e', body] }),
    program: (target) => ['run', scriptPath(target)],
  },
  tcl: stdinFed('tclsh', [], 'apt-get install tcl', { args: [], stdin: 'puts "tclsh [info patchlevel]"\n' }),
  bc: stdinFed('bc', ['-q'], 'apt-get install bc', VERSION),
  awk: {
    binaries: ['awk'],
    install: 'apt-get install mawk',
    // mawk and gawk both answer -W version; busybox awk would fail the probe rather than lie.
    version: { args: ['-W', 'version'] },
    // `--` keeps a program that starts with '-' from being read as an option.
    inline: (body) => ({ args: ['--', body] }),
    program: (target) => ['-f', target],
  },
});

/** A relative script path that starts with '-' would be read as an option: anchor it with './'. */
function scriptPath(target: string): string {
  return target.startsWith('-') ? `./${target}` : target;
}
