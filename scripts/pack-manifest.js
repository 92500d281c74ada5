// `npm pack` / `npm publish` hooks: the package.json that ships carries no scripts, so
// installing the tarball runs and lists no lifecycle script (npm warns about `prepare`), and
// no devDependencies or workspaces, which mean nothing to a consumer. prepack saves the
// checkout's manifest beside it and strips the copy; postpack puts the saved one back.
import { copyFileSync, existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';

const MANIFEST = 'package.json';
const SAVED = '.package.json.unpacked';
const SHIPPED_WITHOUT = ['scripts', 'devDependencies', 'workspaces'];

const mode = process.argv[2];
if (mode === 'strip') {
  // A pack that died between the two hooks left the stripped copy: start from the saved one.
  if (existsSync(SAVED)) copyFileSync(SAVED, MANIFEST);
  copyFileSync(MANIFEST, SAVED);
  const manifest = JSON.parse(readFileSync(MANIFEST, 'utf8'));
  for (const field of SHIPPED_WITHOUT) delete manifest[field];
  writeFileSync(MANIFEST, `${JSON.stringify(manifest, null, 2)}\n`);
} else if (mode === 'restore') {
  if (existsSync(SAVED)) renameSync(SAVED, MANIFEST);
} else {
  console.error('usage: node scripts/pack-manifest.js strip|restore');
  process.exit(2);
}
