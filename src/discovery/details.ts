import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PlurnkExecsError } from '../contracts/errors.js';

/**
 * A tag's supplemental Markdown (§executor-runtime-declaration): `docs/<tag>.md` in the
 * package wins over the inline `details` field. The file is read with its line endings made
 * `\n`, and its authoring title is removed (see `stripTitle`). No file and no inline field
 * means no details (undefined). A file that exists but cannot be read fails hard.
 */
export async function readDetails(
  packageDir: string,
  packageName: string,
  tag: string,
  inline: string | undefined,
): Promise<string | undefined> {
  const path = join(packageDir, 'docs', `${tag}.md`);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (cause) {
    const code = (cause as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return inline;
    throw new PlurnkExecsError(
      'invalid-declaration',
      `Unreadable details in package "${packageName}", runtime "${tag}": ${path} exists but could not be read (${code ?? String(cause)}). Fix: make it a readable file, or remove it.`,
      { cause },
    );
  }
  return stripTitle(text.replace(/\r\n?/g, '\n'), tag);
}

/**
 * Removes the authoring title of a standalone doc: when the first line is exactly
 * `# <tag>`, that line goes, and so does the blank (or whitespace-only) line right after it. Everything else is
 * kept as written; the generated tool document owns the one model-facing H1.
 */
export function stripTitle(text: string, tag: string): string {
  const title = `# ${tag}`;
  if (text === title) return '';
  if (!text.startsWith(`${title}\n`)) return text;
  const rest = text.slice(title.length + 1);
  const blank = /^[ \t]*(?:\n|$)/.exec(rest);
  return blank === null ? rest : rest.slice(blank[0].length);
}
