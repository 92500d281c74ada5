import { bootHost } from '../host/boot-host.js';
import { discover } from '../discovery/discover.js';
import { renderToolDocument } from '../documents/tool-document.js';
import { EXIT, type CliIo, type Command } from './cli-io.js';
import { parseFlags } from './parse-flags.js';

const USAGE = `Usage: plurnk-execs doc <tag>

Prints the model-facing tool document of an installed runtime tag: its Summary, its
Invocation with the executable witness, and the package's supplemental details. A tool
family (an executor with toolRegistry()) prints its family document, then one document per
exact tool, separated by lines of ---.
`;

/** `plurnk-execs doc`. */
export const docCommand: Command = {
  name: 'doc',
  summary: 'print the model-facing tool document of a runtime tag',
  usage: USAGE,
  async run(argv: string[], io: CliIo): Promise<number> {
    const { values, positionals } = parseFlags('doc', argv, {}, { names: ['tag'], required: 1 });
    if (values.help) return (void io.stdout.write(USAGE), EXIT.ok);
    const [tag = ''] = positionals;
    const discovery = await discover({ cwd: io.cwd });
    const entry = discovery.registry.get(tag);
    if (entry === undefined) {
      const why = discovery.disabled.includes(tag) ? 'is disabled by policy' : 'is not installed';
      io.stderr.write(
        `plurnk-execs doc: runtime tag ${JSON.stringify(tag)} ${why}; installed: ${[...discovery.registry.keys()].sort().join(', ') || 'none'}\n`,
      );
      return EXIT.failed;
    }
    // The tool registry lives in the executor: boot this one tag to read it.
    const host = await bootHost({ ...discovery, registry: new Map([[tag, entry]]) });
    const registry = host.toolRegistry(tag);
    const verdict = host.availability(tag);
    await host.close();
    if (!verdict?.available)
      io.stderr.write(
        `note: ${tag} is unavailable (${verdict?.detail ?? 'not probed'}); a tool family's tools cannot be read\n`,
      );
    const documents = renderToolDocument(entry, registry);
    const parts = [documents.runtime.markdown, ...documents.tools.map((tool) => tool.markdown)];
    io.stdout.write(parts.map((part) => part.trimEnd()).join('\n\n---\n\n') + '\n');
    return EXIT.ok;
  },
};
