import { afterEach, describe, expect, it } from 'vitest';
import { keepPermissionFromChildren } from '../../../src/worker/child-permission.js';

const model = Number(process.versions.node.split('.')[0]) >= 22 ? '--permission' : '--experimental-permission';

// Node reads process.execArgv anew at every spawn (fork's execArgv, spawn's NODE_OPTIONS): what
// the filter leaves there is what a leaf's child inherits.
describe('keepPermissionFromChildren', () => {
  const original = process.execArgv;
  afterEach(() => {
    process.execArgv = original;
  });

  it('takes every permission flag out of process.execArgv, in either form, and keeps the rest', () => {
    process.execArgv = [
      '--enable-source-maps',
      model,
      '--allow-fs-read=*',
      '--allow-fs-write',
      '/srv/work',
      '--allow-worker',
      '--allow-child-process',
      '--max-old-space-size=512',
      '--allow-addons',
    ];
    keepPermissionFromChildren();
    expect(process.execArgv).toEqual(['--enable-source-maps', '--max-old-space-size=512']);
  });

  it("keeps a V8 flag that only looks like one (Node's own options alone are permission flags)", () => {
    process.execArgv = ['--allow-natives-syntax', '--allow-fs-read=/srv'];
    keepPermissionFromChildren();
    expect(process.execArgv).toEqual(['--allow-natives-syntax']);
  });

  it('leaves process.execArgv as it was when it holds no permission flag', () => {
    const argv = ['--expose-gc', '--conditions=dev'];
    process.execArgv = argv;
    keepPermissionFromChildren();
    expect(process.execArgv).toBe(argv);
  });
});
