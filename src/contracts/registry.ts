import type { RuntimeInvocation } from './invocation.js';

/** One registered runtime tag: its validated declaration and the package that owns it. */
export interface RegistryEntry {
  /** The runtime tag (`[a-z][a-z0-9+.-]*`). */
  readonly tag: string;
  /** Presentation glyph; '' when the declaration has none. */
  readonly glyph: string;
  /** One-line description of the capability. */
  readonly summary: string;
  /** The validated, normalized invocation contract. */
  readonly invocation: RuntimeInvocation;
  /** Supplemental Markdown (`docs/<tag>.md` wins over the inline field), or undefined. */
  readonly details: string | undefined;
  /** Package that owns and default-exports the executor. */
  readonly packageName: string;
  /** Real path of the package directory. */
  readonly packageDir: string;
  /** file: URL of the module whose default export is the executor class (the package's "." export). */
  readonly entryUrl: string;
  /** Published attribution of the package, or null when it declares none. */
  readonly attribution: readonly string[] | null;
}

/** What discovery returns (§executor-discovery). */
export interface Discovery {
  /** Every admitted tag, in discovery order. */
  readonly registry: ReadonlyMap<string, RegistryEntry>;
  /** Attribution per package that kept at least one tag. */
  readonly packageAttributions: ReadonlyMap<string, readonly string[] | null>;
  /** Packages withheld by the trust gate, sorted. */
  readonly skipped: readonly string[];
  /** Tags removed by policy, sorted. */
  readonly disabled: readonly string[];
  /** The environment after package `.env.defaults` floors were filled beneath the supplied one. */
  readonly env: NodeJS.ProcessEnv;
  /** Every floor that was applied or offered: key, value and owning package. */
  readonly envDefaults: readonly { key: string; value: string; owner: string }[];
}
