import { pathToFileURL } from 'node:url';
import { describe, expect, test } from 'vitest';
import { resolveExport } from '../../../src/discovery/resolve-export.js';
import { fixture } from '../../helpers/discovery-fixtures.js';

const dir = '/pkg';
const url = (file: string) => pathToFileURL(`/pkg/${file}`).href;

describe('resolveExport follows a package exports map as Node would', () => {
  test.each<[string, Record<string, unknown>, string, string | undefined]>([
    ['a string export is "."', { exports: './main.js' }, '.', url('main.js')],
    [
      'conditions honour import',
      { exports: { types: './i.d.ts', import: './esm.js', require: './cjs.cjs' } },
      '.',
      url('esm.js'),
    ],
    ['conditions honour default', { exports: { require: './cjs.cjs', default: './any.js' } }, '.', url('any.js')],
    [
      'conditions honour node, in key order',
      { exports: { node: './node.js', import: './esm.js' } },
      '.',
      url('node.js'),
    ],
    [
      'nested conditions',
      { exports: { '.': { node: { import: './n-esm.js', require: './n.cjs' } } } },
      '.',
      url('n-esm.js'),
    ],
    [
      'a subpath map',
      { exports: { '.': './index.js', './runtimes': './lib/runtimes.js' } },
      './runtimes',
      url('lib/runtimes.js'),
    ],
    ['a subpath with conditions', { exports: { './runtimes': { import: './r.mjs' } } }, './runtimes', url('r.mjs')],
    [
      'an array falls back to the first usable target',
      { exports: { '.': ['not-relative', './ok.js'] } },
      '.',
      url('ok.js'),
    ],
    [
      'a * pattern',
      { exports: { './hooks/*': './dist/hooks/*.js' } },
      './hooks/runtimes',
      url('dist/hooks/runtimes.js'),
    ],
    [
      'an exact key beats a pattern',
      { exports: { './hooks/*': './dist/*.js', './hooks/x': './exact.js' } },
      './hooks/x',
      url('exact.js'),
    ],
    ['a subpath not exported', { exports: { '.': './index.js' } }, './runtimes', undefined],
    ['null blocks a subpath', { exports: { '.': './index.js', './runtimes': null } }, './runtimes', undefined],
    ['only unknown conditions', { exports: { require: './cjs.cjs', types: './t.d.ts' } }, '.', undefined],
    [
      'a map mixing subpaths and conditions is invalid',
      { exports: { '.': './a.js', import: './b.js' } },
      '.',
      undefined,
    ],
    ['a target escaping the package', { exports: { './runtimes': './../other/x.js' } }, './runtimes', undefined],
    ['a target into node_modules', { exports: { './runtimes': './node_modules/dep/x.js' } }, './runtimes', undefined],
    ['no exports map: "." is index.js', {}, '.', url('index.js')],
    ['no exports map: a subpath is the file it names', {}, './runtimes.js', url('runtimes.js')],
  ])('%s', (_title, packageJson, subpath, expected) => {
    expect(resolveExport(dir, packageJson, subpath)).toBe(expected);
  });

  test('without an exports map, main is found as Node finds it', () => {
    const voices = fixture('mixed', 'voices-exec');
    expect(resolveExport(voices, { main: './lib/main.js' }, '.')).toBe(pathToFileURL(`${voices}/lib/main.js`).href);
    expect(resolveExport(voices, { main: './lib/main' }, '.')).toBe(pathToFileURL(`${voices}/lib/main.js`).href);
    expect(resolveExport(voices, { main: './missing.js' }, '.')).toBe(pathToFileURL(`${voices}/index.js`).href);
  });
});
