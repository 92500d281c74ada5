import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
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
export async function executorClass(packageName: string): Promise<new (options: { runtime: string; glyph: string }) => BaseExecutor> {
  return ((await import(packageName)) as { default: new (options: { runtime: string; glyph: string }) => BaseExecutor }).default;
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

/** What one run produced, in the shape the host's `exec` reports it. */
export interface LeafRun {
  result: ExecResult;
  channels: Record<string, ChannelView>;
  /** The declared channel `name`; throws for an undeclared one. */
  channel(name: string): ChannelView;
  notices: Notice[];
  /** Every sink call in order (in-process only). */
  events: ReturnType<typeof recordingArgs>['recording']['events'];
}

/** The fields of one EXEC; everything but `runtime` defaults as in `recordingArgs`. */
export type ExecFields = Partial<Omit<ExecArgs, 'runtime' | 'write' | 'setState' | 'emit' | 'interact'>>;

/**
 * Runs one EXEC of `tag` in this thread and reports it the way the host will. This is the one
 * place the leaf tests call executors: when the host lands, its body becomes
 * `host.exec({ runtime: tag, ...fields })`, whose `out` has the same `result`, `channels`
 * (mimetype, state, text) and `notices`.
 */
export async function runTag(tag: string, fields: ExecFields = {}): Promise<LeafRun> {
  const executor = await executorFor(tag);
  const { args, recording } = recordingArgs({ runtime: tag, ...fields });
  const result = await executor.run(args);
  const channels: LeafRun['channels'] = {};
  for (const [name, decl] of Object.entries(executor.channels)) {
    const written = recording.events.filter((e) => e.kind === 'write' && e.channel === name && e.mimetype !== undefined);
    const last = written.at(-1);
    channels[name] = {
      mimetype: last?.kind === 'write' && last.mimetype ? last.mimetype : decl.mimetype,
      state: recording.state(name),
      text: recording.text(name),
    };
  }
  const notices = recording.events.flatMap((e) => (e.kind === 'notice' ? [e.notice] : []));
  const channel = (name: string): ChannelView => {
    const view = channels[name];
    if (view === undefined) throw new Error(`${tag} declares no channel ${name}`);
    return view;
  };
  return { result, channels, channel, notices, events: recording.events };
}

/** The Problem code of a result (the last segment of its `type`), or undefined on success. */
export function problemCodeOf(result: ExecResult): string | undefined {
  return result.problem?.type.slice(result.problem.type.lastIndexOf('/') + 1);
}
