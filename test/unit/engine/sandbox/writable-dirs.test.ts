import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writableDirs } from '../../../../src/engine/sandbox/engine-sandbox.js';
import { scratchDir } from '../../../helpers/scratch.js';

// permissions.fsWrite as the setup binds it writable in the engine's locked view.
describe('the writable directories of a locked view', () => {
  it('binds each real path once, none inside another, and leaves a missing one read-only', () => {
    const root = scratchDir('writable-dirs');
    mkdirSync(join(root, 'work', 'inner'), { recursive: true });
    mkdirSync(join(root, 'other'));
    symlinkSync(join(root, 'other'), join(root, 'link'));
    expect(
      writableDirs([join(root, 'work', 'inner'), join(root, 'link'), join(root, 'work'), join(root, 'gone')]),
    ).toEqual([join(root, 'other'), join(root, 'work')]);
  });

  it('leaves the view open for /, and says so', () => {
    expect(writableDirs(['/tmp', '/'])).toBe(
      'permissions.fsWrite holds /: the engine may write wherever the service’s user may',
    );
  });
});
