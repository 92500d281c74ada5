import { describe, expect, it } from 'vitest';
import { BaseExecutor, Results, type ChannelDecl, type ExecArgs, type ExecResult } from '../../../src/index.js';

class Echo extends BaseExecutor {
  get channels(): Readonly<Record<string, ChannelDecl>> {
    return { results: { mimetype: 'application/json' }, log: { mimetype: 'text/plain', defaultState: 'active' } };
  }
  async run(args: ExecArgs): Promise<ExecResult> {
    args.write('results', JSON.stringify(args.body));
    return Results.success();
  }
}

class NoChannels extends BaseExecutor {
  get channels() {
    return {};
  }
  async run(): Promise<ExecResult> {
    return Results.success();
  }
}

describe('BaseExecutor', () => {
  const executor = new Echo({ runtime: 'echo', glyph: '🔁' });

  it('keeps the runtime and glyph it was constructed with', () => {
    expect(executor.runtime).toBe('echo');
    expect(executor.glyph).toBe('🔁');
  });

  it('uses the first declared channel as the default channel', () => {
    expect(executor.defaultChannel).toBe('results');
  });

  it('probes available by default', async () => {
    await expect(executor.probe()).resolves.toEqual({ available: true });
  });

  it('classifies every target as host by default, synchronously', () => {
    expect(executor.effect(null)).toBe('host');
    expect(executor.effect('/etc/passwd')).toBe('host');
  });

  it('has no tool registry unless a subclass defines one', () => {
    expect(executor.toolRegistry).toBeUndefined();
  });

  it('has "" as its default channel when it declares none, as 1.x', () => {
    expect(new NoChannels({ runtime: 'empty', glyph: '' }).defaultChannel).toBe('');
  });
});
