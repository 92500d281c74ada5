import { describe, expect, it } from 'vitest';
import { zooDirs, zooHost } from '../../helpers/zoo.js';

/** The cap the host holds a run's pending interactions to by default (limits.pendingInteractions). */
const CAP = 16;
/** The sink messages one run may post by default (limits.sinkMessages). */
const BUDGET = 1_000_000;

// A leaf's interact() calls wait on a person or the embedding service: a run may have only a
// few pending at once, and the rest are refused before they reach the embedding service.
describe('the zoo: floods', () => {
  const host = zooHost({
    packageDirs: zooDirs('floods-interactions', 'floods-sink-port', 'healthy'),
    breaker: { crashes: 1000 },
    limits: { graceMs: 300 },
  });

  it('puts at most a few of a run’s interact() calls in front of the embedding service at once', async () => {
    const { interact, most } = countingInteract();
    const out = await host().exec({ runtime: 'floods-interactions', body: 'fault', sinks: { interact } });
    expect(out.result).toEqual({ status: 200 });
    expect(most()).toBe(CAP);
    expect(out.channels.out!.text).toBe(`answered ${CAP} refused ${100 - CAP}`);
    expect(out.violations[0]).toEqual({
      kind: 'invalid-interaction',
      detail: expect.stringContaining(`${CAP} interactions are already pending`),
    });
    // One pending interaction is no flood.
    const ok = await host().exec({ runtime: 'floods-interactions', body: 'ok', sinks: { interact } });
    expect(ok.channels.out!.text).toBe('ok');
    expect(ok.violations).toEqual([]);
  });

  it.each(['writes', 'raw'])(
    'ends a run that floods its sink port (%s) past its message budget like one past its output cap',
    async (body) => {
      const flooding = host().exec({ runtime: 'floods-sink-port', body });
      const during = await host().exec({ runtime: 'healthy', body: 'during' });
      expect(during.result).toEqual({ status: 200 });
      const out = await flooding;
      expect(out.result.status).toBe(500);
      expect(out.result.problem?.type).toBe('https://problems.plurnk.xyz/scheme/exec/output-limit-exceeded');
      expect(out.result.problem?.detail).toContain(`more than ${BUDGET} sink messages`);
      expect(out.containment?.forcedEnd?.reason).toBe('output-limit');
      // What was applied before the budget ran out is kept, intact.
      const text = out.channels.out!.text;
      expect(text.length).toBeGreaterThan(0);
      expect(text.length).toBeLessThanOrEqual(BUDGET + 64);
      expect(/^x+$/.test(text)).toBe(true);
      expect((await host().exec({ runtime: 'floods-sink-port', body: 'ok' })).channels.out!.text).toBe('ok');
    },
    60_000,
  );
});

// The budgets are options (limits.pendingInteractions, limits.sinkMessages): a host given
// smaller ones holds a run to them, in either tier (the engine's threads get the same limits).
describe('the zoo: floods, with budgets of the host’s choosing', () => {
  const PENDING = 4;
  const MESSAGES = 1000;
  const host = zooHost({
    packageDirs: zooDirs('floods-interactions', 'floods-sink-port'),
    breaker: { crashes: 1000 },
    limits: { graceMs: 300, pendingInteractions: PENDING, sinkMessages: MESSAGES },
  });

  it('holds a run to limits.pendingInteractions pending interact() calls', async () => {
    const { interact, most } = countingInteract();
    const out = await host().exec({ runtime: 'floods-interactions', body: 'fault', sinks: { interact } });
    expect(out.result).toEqual({ status: 200 });
    expect(most()).toBe(PENDING);
    expect(out.channels.out!.text).toBe(`answered ${PENDING} refused ${100 - PENDING}`);
    expect(out.violations[0]).toEqual({
      kind: 'invalid-interaction',
      detail: expect.stringContaining(`${PENDING} interactions are already pending (limits.pendingInteractions)`),
    });
  });

  it.each(['writes', 'raw'])('ends a run that posts past limits.sinkMessages (%s)', async (body) => {
    const out = await host().exec({ runtime: 'floods-sink-port', body });
    expect(out.result.status).toBe(500);
    expect(out.result.problem?.type).toBe('https://problems.plurnk.xyz/scheme/exec/output-limit-exceeded');
    expect(out.result.problem?.detail).toContain(`more than ${MESSAGES} sink messages (limits.sinkMessages)`);
    expect(out.containment?.forcedEnd?.reason).toBe('output-limit');
    // What was applied before the budget ran out is kept: no more than the budget and the flush's slack.
    expect(out.channels.out!.text).toMatch(/^x+$/);
    expect(out.channels.out!.text.length).toBeLessThanOrEqual(MESSAGES + 64);
    expect((await host().exec({ runtime: 'floods-sink-port', body: 'ok' })).channels.out!.text).toBe('ok');
  });
});

/** An embedding `interact` sink that answers after 20 ms, and the most calls it had in flight at once. */
function countingInteract() {
  let inFlight = 0;
  let most = 0;
  const interact = async () => {
    inFlight += 1;
    most = Math.max(most, inFlight);
    await new Promise((resolve) => setTimeout(resolve, 20));
    inFlight -= 1;
    return { status: 'resolved' as const };
  };
  return { interact, most: () => most };
}
