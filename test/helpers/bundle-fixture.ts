import { mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { scratchDir } from './scratch.js';

/**
 * A scratch package root holding `bundle` (a path under it) built from the one module `input`,
 * listed beside it as scripts/bundle-thread.js lists a bundle's modules; the bundle last written
 * at `builtAt`, the module at `inputAt` (seconds). `inputs` replaces the list's text.
 */
export function bundleFixture(options: {
  bundle: string;
  input: string;
  builtAt: number;
  inputAt: number;
  inputs?: string;
}): string {
  const root = scratchDir('bundle-fixture');
  const bundle = join(root, options.bundle);
  const input = join(root, options.input);
  for (const file of [bundle, input]) {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, 'export {}');
  }
  writeFileSync(`${bundle.slice(0, -3)}.inputs.json`, options.inputs ?? JSON.stringify([options.input]));
  utimesSync(input, options.inputAt, options.inputAt);
  utimesSync(bundle, options.builtAt, options.builtAt);
  return root;
}
