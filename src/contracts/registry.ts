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

/** A leaf package discovery left out because its manifest or declarations are invalid. */
export interface InvalidPackage {
  readonly packageName: string;
  /** Real path of the package directory. */
  readonly packageDir: string;
  /** Every error found in the package, each naming the field and the fix. */
  readonly errors: readonly string[];
  /** True when policy or the `tags` option excludes every tag the package declares: it never fails a boot. */
  readonly excluded: boolean;
}

/** What discovery returns (§executor-discovery). */
export interface Discovery {
  /** Every admitted tag, in discovery order. */
  readonly registry: ReadonlyMap<string, RegistryEntry>;
  /** Attribution per package that kept at least one tag. */
  readonly packageAttributions: ReadonlyMap<string, readonly string[] | null>;
  /** The node_modules directories scanned, or the explicit `packageDirs`: where leaves were looked for. */
  readonly searched: readonly string[];
  /** Packages withheld by the trust gate, sorted. */
  readonly skipped: readonly string[];
  /** Tags removed by policy or the `tags` option, sorted. */
  readonly disabled: readonly string[];
  /** Packages left out as invalid (`onInvalidLeaf: 'skip'`, or excluded by policy), in discovery order. */
  readonly invalid: readonly InvalidPackage[];
  /** The environment after package `.env.defaults` floors were filled beneath the supplied one. */
  readonly env: NodeJS.ProcessEnv;
  /** Every floor that was applied or offered: key, value and owning package. */
  readonly envDefaults: readonly { key: string; value: string; owner: string }[];
}
