import type { RuntimeInvocation, RuntimeToolRegistry } from '../contracts/invocation.js';
import type { RegistryEntry } from '../contracts/registry.js';

/** One model-facing document and the Summary a consumer exposes through FIND metadata. */
export interface ToolDocument {
  readonly summary: string;
  readonly markdown: string;
}

/** The document of one exact tool, keyed by its literal target. */
export interface ExactToolDocument extends ToolDocument {
  readonly target: string;
}

/** A runtime's document (general, or the compact family document) and one child per exact tool. */
export interface ToolDocuments {
  readonly runtime: ToolDocument;
  readonly tools: readonly ExactToolDocument[];
}

/** What a tool document is rendered from: a registry entry's identity and validated facts. */
export type ToolDocumentSource = Pick<RegistryEntry, 'runtime' | 'summary' | 'invocation' | 'details'>;

const KIND_TEXT = {
  literal: 'passed exactly as written; it is a name, never read as a path or address',
  path: 'a local or `file://` path, passed as is',
  resource: 'a local path, or a data-scheme address read once and handed over as a temporary file',
  script: 'a program file (a local or `file://` path) the runtime runs; never a command or a directory',
} as const;

/**
 * Renders the model-facing tool documents of a runtime (§executor-tool-document). Without a
 * registry: one general document with an H1 `# <tag>`, an H2 `Summary` holding the compact
 * invocation witness in inline code (the summary as the `<!-- -->` annotation of the EXEC
 * heading, a literal `\n` before a one-line body), and an H2 `Invocation` with the witness in
 * a `plurnk` fence and the body and target rules. With an exact registry: a compact family
 * document whose Summary is the runtime summary and whose Invocation is one `plurnk` fence of
 * every annotated tool heading and signature, plus one child document per tool. Supplemental
 * details always come last.
 */
export function renderToolDocument(source: ToolDocumentSource, registry?: RuntimeToolRegistry): ToolDocuments {
  if (registry === undefined) {
    const summary = toInlineCode(renderWitness(source.runtime, source.summary, source.invocation).join('\\n'));
    return {
      runtime: {
        summary,
        markdown: renderDocument(source.runtime, summary, renderGeneralInvocation(source), source.details),
      },
      tools: [],
    };
  }
  const headings = registry.tools.map((tool) =>
    renderWitness(source.runtime, tool.summary, tool.invocation, tool.target).join('\n'),
  );
  const invocation =
    headings.length === 0
      ? ['No tools are available: this runtime admits no target.']
      : [toFence('plurnk', headings.join('\n\n'))];
  const tools = registry.tools.map((tool) => {
    const summary = toInlineCode(renderWitness(source.runtime, tool.summary, tool.invocation, tool.target).join('\\n'));
    const lines = [`- Target: ${toInlineCode(tool.target)}, exactly.`, ...renderInputRules(tool.invocation, false)];
    lines.push(
      '',
      toFence('plurnk', renderWitness(source.runtime, tool.summary, tool.invocation, tool.target).join('\n')),
    );
    return {
      target: tool.target,
      summary,
      markdown: renderDocument(`${source.runtime} (${tool.target})`, summary, lines, tool.details),
    };
  });
  return {
    runtime: {
      summary: source.summary,
      markdown: renderDocument(source.runtime, source.summary, invocation, source.details),
    },
    tools,
  };
}

function renderDocument(
  title: string,
  summary: string,
  invocation: readonly string[],
  details: string | undefined,
): string {
  const parts = [`# ${title}`, '', '## Summary', '', summary, '', '## Invocation', '', ...invocation];
  if (details !== undefined && details.trim() !== '') parts.push('', details.trimEnd());
  return `${parts.join('\n')}\n`;
}

/** The annotated EXEC heading, then the body line when there is one: `[heading, body?]`. */
function renderWitness(tag: string, summary: string, invocation: RuntimeInvocation, toolTarget?: string): string[] {
  const target = toolTarget ?? invocation.example?.target;
  const heading = `## EXEC0 [${tag}]${target === undefined || target === '' ? '' : ` (${target})`} <!-- ${summary} -->`;
  const body = invocation.signature ?? invocation.example?.body;
  return body === undefined || body.trim() === '' ? [heading] : [heading, body];
}

function renderGeneralInvocation(source: ToolDocumentSource): string[] {
  return [
    toFence('plurnk', renderWitness(source.runtime, source.summary, source.invocation).join('\n')),
    '',
    ...renderInputRules(source.invocation, true),
  ];
}

/** The body and target rules as a Markdown list. */
function renderInputRules(invocation: RuntimeInvocation, describeTarget: boolean): string[] {
  const { body, target } = invocation;
  const lines = [`- Body: ${body.role}. ${body.required === true ? 'Required.' : 'Optional.'}`];
  if (invocation.signature !== undefined)
    lines.push(
      `- Signature: ${toInlineCode(invocation.signature)} describes the body's shape; it is not a runnable example.`,
    );
  if (invocation.inputSchema !== undefined)
    lines.push(
      `- Input schema: the body is JSON that follows ${toInlineCode(JSON.stringify(invocation.inputSchema))}.`,
    );
  if (describeTarget && target === undefined) lines.push('- Target: none; an EXEC that gives one is refused.');
  if (describeTarget && target !== undefined) {
    const directory = target.directory === 'cwd' ? ' A local directory becomes the working directory instead.' : '';
    lines.push(
      `- Target \`(…)\`: ${target.role}; ${KIND_TEXT[target.kind]}. ${target.required === true ? 'Required.' : 'Optional.'}${directory}`,
    );
  }
  if (invocation.exclusive === true) lines.push('- Give a body or a target, not both.');
  if (body.required !== true && target?.required !== true)
    lines.push('- Every EXEC gives at least a body or a target.');
  return lines;
}

/** `text` as a CommonMark code span, fenced with more backticks than it contains in a row. */
function toInlineCode(text: string): string {
  const ticks = '`'.repeat(countLongestRun(text, '`') + 1);
  const pad = text.startsWith('`') || text.endsWith('`') ? ' ' : '';
  return `${ticks}${pad}${text}${pad}${ticks}`;
}

function toFence(info: string, text: string): string {
  const ticks = '`'.repeat(Math.max(3, countLongestRun(text, '`') + 1));
  return `${ticks}${info}\n${text}\n${ticks}`;
}

function countLongestRun(text: string, char: string): number {
  let longest = 0;
  let run = 0;
  for (const c of text) {
    run = c === char ? run + 1 : 0;
    longest = Math.max(longest, run);
  }
  return longest;
}
