import { describe, expect, it } from 'vitest';
import { zooDirs, zooHost } from '../../helpers/zoo.js';

// A thread keeps one control channel and one sink channel for its whole life (a channel per
// task cost more than the task). Runs share them one after another, so what an earlier run's
// sinks post after that run ended must never land in a later run. Threads are reused here
// (`'never'`), as a service that does not recycle would.
describe('the zoo: a leaf that reuses an earlier run’s sinks', () => {
  const host = zooHost({
    packageDirs: zooDirs('reuses-old-sinks'),
    recycle: 'never',
  });

  it('drops what a finished run’s sinks write, set or emit later: the next run gets only its own output', async () => {
    const first = await host().exec({ runtime: 'reuses-old-sinks', body: 'keep' });
    expect(first.channels.out!.text).toBe('kept');
    const late = await host().exec({ runtime: 'reuses-old-sinks', body: 'late' });
    expect(late.result).toEqual({ status: 200 });
    expect(late.channels.out!.text).toBe('own');
    expect(late.channels.out!.state).not.toBe('errored');
    expect(late.notices).toEqual([]);
    expect(late.violations).toEqual([]);
  });

  it('serves every run of a thread over the same sink channel', async () => {
    // The tag may have more than one thread: enough runs that some thread serves several.
    const seen: string[] = [];
    for (let i = 0; i < 6; i++)
      seen.push((await host().exec({ runtime: 'reuses-old-sinks', body: 'port' })).channels.out!.text);
    expect(seen).toContain('> same port');
    expect(seen).not.toContain('> new port');
  });
});
