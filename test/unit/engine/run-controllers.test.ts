import { describe, expect, it } from 'vitest';
import { RunControllers } from '../../../src/engine/run-controllers.js';

describe('the controllers behind the engine’s runs', () => {
  it('hands a run the controller of one that ended unaborted with nothing listening', () => {
    const controllers = new RunControllers();
    const first = controllers.take();
    const listener = () => {};
    first.signal.addEventListener('abort', listener);
    first.signal.removeEventListener('abort', listener);
    controllers.give(first);
    expect(controllers.take()).toBe(first);
  });

  it('never hands out a controller whose signal aborted, or one still listened on', () => {
    const controllers = new RunControllers();
    const aborted = controllers.take();
    aborted.abort(new Error('the service aborted the run'));
    controllers.give(aborted);
    const listened = controllers.take();
    listened.signal.addEventListener('abort', () => {});
    controllers.give(listened);

    const next = controllers.take();
    expect(next).not.toBe(aborted);
    expect(next).not.toBe(listened);
    expect(next.signal.aborted).toBe(false);
  });

  it('keeps at most 64 spares', () => {
    const controllers = new RunControllers();
    const taken = Array.from({ length: 100 }, () => controllers.take());
    for (const controller of taken) controllers.give(controller);
    const again = new Set(Array.from({ length: 100 }, () => controllers.take()));
    expect(taken.filter((controller) => again.has(controller))).toHaveLength(64);
  });
});
