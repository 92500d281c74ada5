// The first-party leaves and the tags they declare, so that an error about a missing tag can
// say which package to install. A test checks this against src/leaves/*/package.json.

/** Each first-party leaf package and the runtime tags its manifest declares. */
export const KNOWN_LEAVES: Readonly<Record<string, readonly string[]>> = Object.freeze({
  '@plurnk/plurnk-execs-common': [
    'sh',
    'bash',
    'node',
    'python',
    'python3',
    'perl',
    'ruby',
    'php',
    'lua',
    'deno',
    'bun',
    'tcl',
    'bc',
    'awk',
  ],
  '@plurnk/plurnk-execs-git': ['git'],
  '@plurnk/plurnk-execs-jq': ['jq'],
  '@plurnk/plurnk-execs-sqlite': ['sqlite'],
  '@plurnk/plurnk-execs-wasm': ['wat', 'wasm'],
});

/** The first-party package that declares `tag`, or undefined. */
export function knownLeafFor(tag: string): string | undefined {
  return Object.entries(KNOWN_LEAVES).find(([, tags]) => tags.includes(tag))?.[0];
}

/** How to get `tag` registered: the package to install, or where a third-party leaf must be. */
export function explainMissingTag(tag: string, searched: readonly string[]): string {
  const where = searched.length === 0 ? 'no node_modules was found' : `searched ${searched.join(', ')}`;
  const leaf = knownLeafFor(tag);
  const install =
    leaf === undefined
      ? `install the leaf package that declares "${tag}" there`
      : `install ${leaf} (npm install ${leaf}) there`;
  return `no installed leaf declares it (${where}). Fix: ${install}, or start the host with \`cwd\` set to the directory whose node_modules holds your leaves`;
}
