import { expect } from 'vitest';
import type { Host } from '../../src/host/index.js';
import { problemCode } from '../../src/index.js';
import { isInstalled, missingDetail } from './interpreters.js';

/**
 * The one way a test that needs an interpreter runs on any machine: live where the interpreter
 * is on PATH, else down the "unavailable" branch. That branch is a real assertion, not a skip —
 * the host's boot probe said `tag` is unavailable with the install hint docs/leaves.md gives
 * (`ruby not on PATH (install: apt-get install ruby)`), and a run of `tag` is refused 501
 * `runtime-unavailable` carrying that hint — so `npm test` passes on a machine with only what
 * the README asks for, and still proves what such a machine's users get.
 */
export async function liveOrUnavailable(
  tag: string,
  host: Host | Promise<Host>,
  live: () => Promise<void>,
): Promise<void> {
  if (isInstalled(tag)) return live();
  await expectUnavailable(await host, tag);
}

/** What a test title adds for `tag`: '' where its interpreter is installed, the branch it takes where not. */
export function unavailableNote(tag: string): string {
  return isInstalled(tag) ? '' : ' (not installed here: expects the 501 with the install hint)';
}

/** Asserts that `host` probed `tag` unavailable with its install hint, and refuses a run of it 501 with that hint. */
export async function expectUnavailable(host: Host, tag: string): Promise<void> {
  const detail = missingDetail(tag);
  expect(host.availability(tag)).toMatchObject({ available: false, detail });
  expect(host.availableRuntimes()).not.toContain(tag);
  const out = await host.exec({ runtime: tag, body: 'unavailable' });
  expect(out.result.status).toBe(501);
  expect(out.outcome).toBe('refused');
  expect(problemCode(out.result.problem!.type)).toBe('runtime-unavailable');
  expect(out.result.problem!.detail).toBe(`runtime ${tag} is unavailable: ${detail}`);
}
