import { describe, expect, it } from 'vitest';
import {
  BaseExecutor,
  RuntimeTag,
  SubprocessExecutor,
  type ChannelDecl,
  type ExecResult,
  type ExecutorMetadata,
  type RuntimesHook,
} from '../../src/index.js';

class Results extends BaseExecutor {
  get channels(): Readonly<Record<string, ChannelDecl>> {
    return { results: { mimetype: 'application/json' }, log: { mimetype: 'text/plain' } };
  }
  async run(): Promise<ExecResult> {
    return { status: 200 };
  }
}

class Silent extends BaseExecutor {
  get channels(): Readonly<Record<string, ChannelDecl>> {
    return {};
  }
  async run(): Promise<ExecResult> {
    return { status: 204 };
  }
}

// What 1.x's OutputScheme.manifestFromRuntime adds to every executor's manifest (reference §1.9).
const READ_ONLY_OUTPUT = {
  category: 'data',
  writableBy: ['plugin'],
  volatile: true,
  modelVisible: true,
  folderScopes: true,
  foldedByDefault: true,
};

describe('BaseExecutor, as 1.x', () => {
  const metadata: ExecutorMetadata = { runtime: 'rows', glyph: '▦' };

  it("derives 1.x's output-scheme manifest: name, glyph, channel mimetypes, default channel, read-only-output defaults", () => {
    expect(new Results(metadata).manifest).toEqual({
      name: 'rows',
      glyph: '▦',
      channels: { results: 'application/json', log: 'text/plain' },
      defaultChannel: 'results',
      ...READ_ONLY_OUTPUT,
    });
    expect(new SubprocessExecutor({ runtime: 'sh', glyph: '$' }).manifest).toEqual({
      name: 'sh',
      glyph: '$',
      channels: { stdout: 'text/stream', stderr: 'text/stream' },
      defaultChannel: 'stdout',
      ...READ_ONLY_OUTPUT,
    });
  });

  it('has "" as the default channel when it declares none', () => {
    const silent = new Silent({ runtime: 'silent', glyph: '' });
    expect(silent.defaultChannel).toBe('');
    expect(silent.manifest).toEqual({
      name: 'silent',
      glyph: '',
      channels: {},
      defaultChannel: '',
      ...READ_ONLY_OUTPUT,
    });
  });

  it('exports RuntimeTag.is and the RuntimesHook type', () => {
    expect(['sh', 'alias.tool', 'tool-v2', 'c++'].every((tag) => RuntimeTag.is(tag))).toBe(true);
    expect(
      ['Alias', '_private', 'alias_tool', '../escape', 'two words', 'only', 7].some((tag) => RuntimeTag.is(tag)),
    ).toBe(false);
    const hook: RuntimesHook = async () => [];
    expect(typeof hook).toBe('function');
  });
});
