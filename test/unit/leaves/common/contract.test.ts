import { describe, expect, it } from 'vitest';
import { recordingArgs } from '../../../helpers/recording-args.js';
import { executorClass, executorFor, problemCodeOf, runTag, TAGS } from '../leaf-harness.js';
import { namedError } from '../../../helpers/named-error.js';

const COMMON = [...TAGS].filter(([, entry]) => entry.leaf === 'common').map(([tag]) => tag);

describe('common leaf contract', () => {
  it('refuses to be constructed for a tag the package does not claim', async () => {
    const Executor = await executorClass('@plurnk/plurnk-execs-common');
    const thrown = namedError(() => new Executor({ runtime: 'cobol', glyph: '' }), 'invalid-declaration');
    expect(thrown.message).toMatch(
      /constructed for runtime "cobol", which it does not claim; it claims sh, bash, node/,
    );
  });

  it.each(COMMON)(
    '%s declares stdout then stderr as text/stream and is a host effect with or without a target',
    async (tag) => {
      const executor = await executorFor(tag);
      expect(executor.channels).toEqual({ stdout: { mimetype: 'text/stream' }, stderr: { mimetype: 'text/stream' } });
      expect(executor.defaultChannel).toBe('stdout');
      expect([executor.effect(null), executor.effect('script.src')]).toEqual(['host', 'host']);
    },
  );

  it('a run whose signal is already aborted starts nothing and is 499 cancelled', async () => {
    const controller = new AbortController();
    controller.abort();
    const run = await runTag('sh', { body: 'echo should-not-run', signal: controller.signal });
    expect(run.result.status).toBe(499);
    expect(problemCodeOf(run.result)).toBe('cancelled');
    expect(run.channel('stdout')).toMatchObject({ state: 'errored', text: '' });
  });

  it('aborting a running program ends it and the run is 499 cancelled', async () => {
    const executor = await executorFor('bash');
    const controller = new AbortController();
    const { args, recording } = recordingArgs({
      runtime: 'bash',
      body: 'echo ready; exec sleep 60',
      signal: controller.signal,
    });
    let announced!: () => void;
    const ready = new Promise<void>((resolve) => (announced = resolve));
    const write = args.write;
    const running = executor.run({
      ...args,
      write: (channel, chunk) => {
        write(channel, chunk);
        if (chunk.includes('ready')) announced();
      },
    });
    await ready;
    controller.abort();
    const result = await running;
    expect(result.status).toBe(499);
    expect(recording.state('stdout')).toBe('errored');
  });

  it('leaves the args it was given untouched', async () => {
    const { args } = recordingArgs({ runtime: 'sh', body: 'echo hi', env: { PATH: process.env.PATH } });
    const before = { ...args, env: { ...args.env } };
    await (await executorFor('sh')).run(args);
    expect({ ...args, env: { ...args.env } }).toEqual(before);
  });
});
