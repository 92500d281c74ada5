import { readdirSync, readFileSync } from 'node:fs';
import { afterAll } from 'vitest';
import { createHost, type Host } from '../../../src/host/index.js';
import { join } from 'node:path';
import { problemCode } from '../../../src/index.js';
import type { BaseExecutor, ChannelState, ExecArgs, ExecResult, Notice, RuntimeDecl } from '../../../src/index.js';
import { recordingArgs } from '../../helpers/recording-args.js';

/** Where the leaf packages live in this repository. */
export const LEAVES_DIR = join(import.meta.dirname, '..', '..', '..', 'src', 'leaves');

/** Folder names of the built-in leaves: every package under src/leaves. */
export const LEAVES: readonly string[] = readdirSync(LEAVES_DIR, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .sort();
/** One built-in leaf (its folder name). */
export type Leaf = string;

/** A leaf's package.json, as far as the tests read it. */
export interface LeafPackage {
  name: string;
  type?: string;
  exports?: Record<string, unknown>;
  files?: string[];
  peerDependencies?: Record<string, string>;
  plurnk: { kind: string; runtimes: RuntimeDecl[] };
}

/** The package.json of `leaf`, read from disk. */
export function leafPackage(leaf: Leaf): LeafPackage {
  return JSON.parse(readFileSync(join(LEAVES_DIR, leaf, 'package.json'), 'utf8')) as LeafPackage;
}

/** Every declared tag ⇒ its leaf, package name and declaration. */
export const TAGS: ReadonlyMap<string, { leaf: Leaf; packageName: string; decl: RuntimeDecl }> = new Map(
  LEAVES.flatMap((leaf) => {
    const pkg = leafPackage(leaf);
    return pkg.plurnk.runtimes.map((decl) => [decl.name, { leaf, packageName: pkg.name, decl }] as const);
  }),
);

/** The default export of a leaf package, imported by name as the host's worker will. */
export async function executorClass(
  packageName: string,
): Promise<new (options: { runtime: string; glyph: string }) => BaseExecutor> {
  return ((await import(packageName)) as { default: new (options: { runtime: string; glyph: string }) => BaseExecutor })
    .default;
}

/** A fresh executor for `tag`, constructed as the framework does: `{ runtime, glyph }`. */
export async function executorFor(tag: string): Promise<BaseExecutor> {
  const entry = TAGS.get(tag);
  if (entry === undefined) throw new Error(`no leaf declares ${tag}`);
  const Executor = await executorClass(entry.packageName);
  return new Executor({ runtime: tag, glyph: entry.decl.glyph ?? '' });
}

/** One declared channel after a run: its type, last state and everything written to it. */
export interface ChannelView {
  mimetype: string;
  state: ChannelState | undefined;
  text: string;
}

/** What one run produced, as the host's `exec` reports it. */
export interface LeafRun {
  result: ExecResult;
  channels: Record<string, ChannelView>;
  /** The declared channel `name`; throws for an undeclared one. */
  channel(name: string): ChannelView;
  notices: Notice[];
}

/** The fields of one EXEC; everything but `runtime` defaults as in `recordingArgs`. */
export type ExecFields = Partial<Omit<ExecArgs, 'runtime' | 'write' | 'setState' | 'emit' | 'interact'>>;

// One host per leaf package and test file, booted on first use: only that package is
// discovered, so a file pays for booting its own tags only.
const hosts = new Map<Leaf, Promise<Host>>();
afterAll(async () => {
  await Promise.all([...hosts.values()].map(async (host) => (await host).close()));
});

/** The host serving `leaf`'s tags (booted once per test file). */
export function hostFor(leaf: Leaf): Promise<Host> {
  let host = hosts.get(leaf);
  if (host === undefined) {
    // A generous probe bound: these tests judge the leaves, and a loaded machine can take
    // seconds to start an interpreter's version command (the bound itself is tested in host/).
    // The default tier, the process tier, as an embedding service gets it.
    host = createHost({ packageDirs: [join(LEAVES_DIR, leaf)], probeTimeoutMs: 30_000 });
    hosts.set(leaf, host);
  }
  return host;
}

/**
 * Runs one EXEC of `tag` through the isolating host — discovery, invocation buckets,
 * effect, a fresh worker thread, MessagePort sinks, result validation — exactly as an
 * embedding service would. A run that breaks the sink contract (an undeclared channel, an
 * illegal transition) fails the test: the built-in leaves must never cause a violation.
 */
export async function runTag(tag: string, fields: ExecFields = {}): Promise<LeafRun> {
  const entry = TAGS.get(tag);
  if (entry === undefined) throw new Error(`no leaf declares ${tag}`);
  const host = await hostFor(entry.leaf);
  const out = await host.exec({
    runtime: tag,
    body: fields.body ?? '',
    target: fields.target ?? null,
    cwd: fields.cwd ?? null,
    ...(fields.env === undefined ? {} : { env: fields.env }),
    ...(fields.signal === undefined ? {} : { signal: fields.signal }),
  });
  if (out.result.status === 501)
    throw new Error(`${tag} is unavailable in the test host: ${out.result.problem?.detail ?? 'no detail'}`);
  if (out.violations.length > 0)
    throw new Error(`${tag} broke the sink contract: ${out.violations.map((v) => v.detail).join('; ')}`);
  const channels: LeafRun['channels'] = {};
  for (const [name, output] of Object.entries(out.channels)) {
    channels[name] = { mimetype: output.mimetype, state: output.state, text: output.text };
  }
  const channel = (name: string): ChannelView => {
    const view = channels[name];
    if (view === undefined) throw new Error(`${tag} declares no channel ${name}`);
    return view;
  };
  return { result: out.result, channels, channel, notices: out.notices };
}

/**
 * Runs one EXEC of `tag` on `executor` in this thread, with recording sinks: for what only an
 * in-process run can show (an executor instance reused across runs, sink call order).
 */
export async function runInProcess(executor: BaseExecutor, tag: string, fields: ExecFields = {}) {
  const { args, recording } = recordingArgs({ runtime: tag, ...fields });
  const result = await executor.run(args);
  return { result, recording };
}

/** The Problem code of a result (the last segment of its `type`), or undefined on success. */
export function problemCodeOf(result: ExecResult): string | undefined {
  return result.problem === undefined ? undefined : problemCode(result.problem.type);
}
