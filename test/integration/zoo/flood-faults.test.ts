import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createHost, type Host } from '../../../src/host/index.js';
import { watchHostErrors, zooDirs } from '../../helpers/zoo.js';

/** The cap the host holds a run's pending interactions to (contracts/protocol.ts). */
const CAP = 16;

// A leaf's interact() calls wait on a person or the embedding service: a run may have only a
// few pending at once, and the rest are refused before they reach the embedding service.
describe('the zoo: floods', () => {
  let host: Host;
  const hostErrors = watchHostErrors();
  beforeAll(async () => {
    host = await createHost({ packageDirs: zooDirs('floods-interactions'), breaker: { crashes: 1000 } });
  });
  afterEach(() => expect(hostErrors.errors).toEqual([]));
  afterAll(async () => {
    await host.close();
    hostErrors.dispose();
  });

  it('puts at most a few of a run’s interact() calls in front of the embedding service at once', async () => {
    let inFlight = 0;
    let most = 0;
    const interact = async () => {
      inFlight += 1;
      most = Math.max(most, inFlight);
      await new Promise((resolve) => setTimeout(resolve, 20));
      inFlight -= 1;
      return { status: 'resolved' as const };
    };
    const out = await host.exec({ runtime: 'floods-interactions', body: 'fault', sinks: { interact } });
    expect(out.result).toEqual({ status: 200 });
    expect(most).toBe(CAP);
    expect(out.channels.out!.text).toBe(`answered ${CAP} refused ${100 - CAP}`);
    expect(out.violations[0]).toEqual({
      kind: 'invalid-interaction',
      detail: expect.stringContaining(`${CAP} interactions are already pending`),
    });
    // One pending interaction is no flood.
    const ok = await host.exec({ runtime: 'floods-interactions', body: 'ok', sinks: { interact } });
    expect(ok.channels.out!.text).toBe('ok');
    expect(ok.violations).toEqual([]);
  });
});
