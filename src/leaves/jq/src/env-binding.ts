/**
 * jq reads `$ENV` and `env` from the process environment, and jq-wasm fixes that environment
 * when its module starts (Emscripten's defaults: USER=web_user, HOME=/home/web_user, …), with
 * no way to pass another. So a program that can see the environment is run with the run's own
 * environment bound in front of it, on the same line so `$__loc__` keeps its line numbers:
 * `{…} as $ENV | def env: $ENV; <program>`. jq's error messages are then mapped back so the
 * author sees columns and snippets of the program they wrote.
 */

/** A program and the text put in front of it ('' when the program cannot see the environment). */
export interface BoundProgram {
  program: string;
  prefix: string;
}

/**
 * Binds `env` (only its string values) as `$ENV` and `env` for `program`. A program that
 * mentions neither cannot observe the environment — jq has no other way to read it — and is
 * passed through unchanged, so its messages are jq's own byte for byte.
 */
export function bindEnv(program: string, env: NodeJS.ProcessEnv | undefined): BoundProgram {
  if (!/env|ENV/.test(program)) return { program, prefix: '' };
  const visible: Record<string, string> = {};
  for (const [name, value] of Object.entries(env ?? {})) {
    if (typeof value === 'string') visible[name] = value;
  }
  // A JSON object is a jq object literal: JSON.stringify never emits jq's `\(` interpolation.
  // Non-ASCII is escaped so the prefix is as many bytes (jq's columns) as characters.
  const literal = JSON.stringify(visible).replace(
    /[\u0080-\uffff]/g,
    (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
  const prefix = `${literal} as $ENV | def env: $ENV; `;
  return { program: prefix + program, prefix };
}

/**
 * Removes `prefix` from a jq message: from the program snippet, from the caret line under it,
 * and from the column of a line-1 location (`at <top-level>, line 1, column N`).
 */
export function unbindMessage(message: string, prefix: string): string {
  if (prefix === '' || !message.includes(prefix)) return message;
  const lines = message.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const at = lines[i]!.indexOf(prefix);
    if (at === -1) continue;
    lines[i] = lines[i]!.slice(0, at) + lines[i]!.slice(at + prefix.length);
    const caret = lines[i + 1];
    if (caret !== undefined && /^ *\^+ *$/.test(caret))
      lines[i + 1] = caret.slice(0, at) + caret.slice(at + prefix.length);
  }
  return lines
    .join('\n')
    .replace(
      /(<top-level>, line 1, column )(\d+)/g,
      (_, head: string, column: string) => `${head}${Math.max(1, Number(column) - prefix.length)}`,
    );
}
