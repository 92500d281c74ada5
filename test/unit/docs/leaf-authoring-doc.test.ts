import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, test } from 'vitest';
import { discover, parseEnvDefaults, type BaseExecutor, type ExecutorOptions } from '../../../src/index.js';
import { recordingArgs } from '../../helpers/recording-args.js';

// The authoring guide's two-file example must stay a leaf that discovery admits and that runs.
const repo = fileURLToPath(new URL('../../..', import.meta.url));
const guide = readFileSync(join(repo, 'docs', 'leaf-authoring.md'), 'utf8');
const fences = [...guide.matchAll(/```(\w*)\n([\s\S]*?)```/g)].map(([, info, text]) => ({ info, text: text ?? '' }));
const scratch = mkdtempSync(join(tmpdir(), 'plurnk-guide-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

test('the two-file example in docs/leaf-authoring.md is discovered and its executor runs', async () => {
  const packageJson = fences.find((f) => f.info === 'json')?.text ?? '';
  const indexJs = fences.find((f) => f.info === 'js')?.text ?? '';
  const dir = join(scratch, 'node_modules', '@acme', 'acme-execs-upper');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), packageJson);
  writeFileSync(join(dir, 'index.js'), indexJs);
  // The leaf imports the framework by name, as an installed leaf does.
  mkdirSync(join(scratch, 'node_modules', '@plurnk'));
  symlinkSync(repo, join(scratch, 'node_modules', '@plurnk', 'plurnk-execs'), 'dir');

  const { registry, packageAttributions } = await discover({ cwd: scratch, env: {} });
  const entry = registry.get('upper');
  expect(entry?.packageName).toBe('@acme/acme-execs-upper');
  expect([...packageAttributions]).toEqual([['@acme/acme-execs-upper', ['@acme/upper']]]);

  const Executor = (
    (await import(entry?.entryUrl ?? '')) as { default: new (options: ExecutorOptions) => BaseExecutor }
  ).default;
  const executor = new Executor({ runtime: 'upper', glyph: entry?.glyph ?? '' });
  const { args, recording } = recordingArgs({ runtime: 'upper', body: entry?.invocation.example?.body ?? '' });
  expect(await executor.run(args)).toEqual({ status: 200 });
  expect(recording.text('results')).toBe('HELLO WORLD');
});

test('the .env.defaults example in the guide parses', () => {
  const example = fences.find((f) => f.info === '' && f.text.includes('PLURNK_EXECS_UPPER=0'))?.text ?? '';
  expect(parseEnvDefaults(example, '@acme/acme-execs-upper')).toEqual([
    { key: 'PLURNK_EXECS_UPPER', value: '0', owner: '@acme/acme-execs-upper' },
  ]);
});
