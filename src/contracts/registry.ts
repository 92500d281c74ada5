import type { RuntimeInvocation } from './invocation.js';

/**
 * One registered runtime tag, in the 1.x `ExecInfo` shape (§executor-discovery): its validated
 * declaration and the package that owns it, plus where the host finds the executor.
 */
export interface ExecInfo {
  /** The runtime tag (`[a-z][a-z0-9+.-]*`): the EXEC selector and registry key. */
  readonly runtime: string;
  /** Presentation glyph; '' when the declaration has none. */
  readonly glyph: string;
  /** One-line description of the capability. */
  readonly summary: string;
  /** The validated, normalized invocation contract. */
  readonly invocation: RuntimeInvocation;
  /** Supplemental Markdown (`docs/<tag>.md` wins over the inline field); '' when there is none. */
  readonly details: string;
  /** Package that owns and default-exports the executor. */
  readonly packageName: string;
  /**
   * The package's `plurnk.attribution` projected onto the tag: the declared string as
   * written, or a copy of the declared list. Absent when the package declares none.
   */
  readonly attribution?: string | readonly string[];
  /** Where the consumer materializes the tag's generated documents (`/tools`); absent when the declaration names none. */
  readonly resourcesPath?: string;
  /** Real path of the package directory (this package's addition to the 1.x shape). */
  readonly packageDir: string;
  /** file: URL of the module whose default export is the executor class (the package's "." export). */
  readonly entryUrl: string;
}

/** Every admitted tag and its entry, in discovery order (1.x `ExecRegistry`). */
export type ExecRegistry = ReadonlyMap<string, ExecInfo>;

/** The name this package used for {@link ExecInfo} before 1.x compatibility; the same type. */
export type RegistryEntry = ExecInfo;

/**
 * Something discovery read in a way the author did not write down, so a service can tell the
 * operator (never a silent guess): today, a runtime declared in the manifest shape published
 * up to 1.5 and read through the legacy reading (docs/compat.md).
 */
export interface DiscoveryNotice {
  /** The package the notice is about. */
  readonly packageName: string;
  /** The tags it concerns. */
  readonly runtimes: readonly string[];
  /** What discovery did and how the author makes it unnecessary. */
  readonly message: string;
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
  readonly registry: ExecRegistry;
  /** Attribution per package that kept at least one tag and declares a non-empty list. */
  readonly packageAttributions: ReadonlyMap<string, readonly string[]>;
  /** The node_modules directories scanned, or the explicit `packageDirs`: where leaves were looked for. */
  readonly searched?: readonly string[];
  /** Packages withheld by the trust gate, sorted. */
  readonly skipped: readonly string[];
  /** Tags removed by policy or the `tags` option, sorted. */
  readonly disabled: readonly string[];
  /** Packages left out as invalid (`onInvalidLeaf: 'skip'`, or excluded by policy), in discovery order (absent from hand-built discoveries). */
  readonly invalid?: readonly InvalidPackage[];
  /** Readings discovery made on an author's behalf, one per package (absent from hand-built discoveries). */
  readonly notices?: readonly DiscoveryNotice[];
  /** The environment after package `.env.defaults` floors were filled beneath the supplied one. */
  readonly env: NodeJS.ProcessEnv;
  /** Every floor that was applied or offered: key, value and owning package. */
  readonly envDefaults: readonly { key: string; value: string; owner: string }[];
}
