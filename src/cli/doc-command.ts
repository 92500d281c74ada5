import { discover } from '../host/discover.js';
import { renderToolDocument } from '../host/tool-document.js';
import { EXIT, type CliIo, type Command } from './cli-io.js';
import { parseFlags } from './parse-flags.js';

const USAGE = `Usage: plurnk-execs doc <tag>

Prints the model-facing tool document of an installed runtime tag: its Summary, its
Invocation with the executable witness, and the package's supplemental details.
`;

/** `plurnk-execs doc`. */
export const docCommand: Command = {
  name: 'doc',
  summary: 'print the model-facing tool document of a runtime tag',
  usage: USAGE,
  async run(argv: string[], io: CliIo): Promise<number> {
    const { values, positionals } = parseFlags('doc', argv, {}, { names: ['tag'], required: 1 });
    if (values.help) return void io.stdout.write(USAGE), EXIT.ok;
    const [tag = ''] = positionals;
    const discovery = await discover({ cwd: io.cwd });
    const entry = discovery.registry.get(tag);
    if (entry === undefined) {
      const why = discovery.disabled.includes(tag) ? 'is disabled by policy' : 'is not installed';
      io.stderr.write(`plurnk-execs doc: runtime tag ${JSON.stringify(tag)} ${why}; installed: ${[...discovery.registry.keys()].sort().join(', ') || 'none'}\n`);
      return EXIT.failed;
    }
    const documents = renderToolDocument(entry);
    io.stdout.write(documents.runtime.markdown.endsWith('\n') ? documents.runtime.markdown : `${documents.runtime.markdown}\n`);
    return EXIT.ok;
  },
};
