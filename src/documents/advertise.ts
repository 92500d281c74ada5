import type { RegistryEntry } from '../contracts/registry.js';

/** The one line spoken when no EXEC runtime survives the caller's filter (frozen 1.x wording). */
export const NO_EXECS_NOTICE = 'No EXEC operations permitted';

/** What `Advertise.contribute` returns: the surviving entries, or the notice when there are none. */
export interface AdvertiseContribution {
  readonly permitted: RegistryEntry[];
  readonly notice: string | null;
}

/**
 * Frozen 1.x compatibility surface (§executor-advertise-compat). It owns nothing: it does not
 * discover, probe, admit, dispatch or render, and the composed service never calls it. New
 * consumers compose `discover` and `Policy` with their own presentation.
 *
 * @deprecated Kept for 1.x consumers; removal is SemVer-major.
 */
export const Advertise = Object.freeze({
  /** The notice returned when the filtered registry is empty. */
  NO_EXECS_NOTICE,

  /**
   * Filters `registry` by `isPermitted(tag)`. `notice` is `NO_EXECS_NOTICE` exactly when
   * nothing survives, and null otherwise; both come from the same filter so they cannot drift.
   */
  contribute(
    registry: ReadonlyMap<string, RegistryEntry>,
    isPermitted: (tag: string) => boolean,
  ): AdvertiseContribution {
    const permitted = [...registry.values()].filter((entry) => isPermitted(entry.runtime));
    return { permitted, notice: permitted.length === 0 ? NO_EXECS_NOTICE : null };
  },
});
