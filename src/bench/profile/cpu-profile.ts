/** The parts of a V8 `.cpuprofile` (what `node --cpu-prof` writes) that a summary reads. */
export interface CpuProfile {
  readonly nodes: readonly {
    readonly id: number;
    readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number };
  }[];
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
  /** When sampling began (µs, monotonic clock): each sample is stamped `startTime` + the deltas so far. */
  readonly startTime: number;
}

/** One function (or area) and its share of a profile's sampled time. */
export interface ProfileShare {
  readonly name: string;
  readonly ms: number;
  /** Share of all sampled time, 0–1. */
  readonly share: number;
}

/** Where a profile's time went: V8's own buckets, the top functions by self time, and areas. */
export interface ProfileSummary {
  /** Sampled wall time across the profiles summed (ms). */
  readonly totalMs: number;
  /** Asleep, waiting for work (`(idle)`). */
  readonly idle: number;
  /** Garbage collection. */
  readonly gc: number;
  /** V8 and Node native code with no JavaScript frame (`(program)`): loading, compiling, messaging. */
  readonly program: number;
  readonly functions: ProfileShare[];
  readonly areas: ProfileShare[];
}

const BUCKETS = new Set(['(idle)', '(garbage collector)', '(program)', '(root)']);

/**
 * Sums self time per function and per area over one or more profiles (the threads of one kind
 * are merged: 100 short-lived threads read as one). A function is its name and where it is; an
 * area is this package's folder (`dist/host`, `dist/worker`, …), a package under node_modules,
 * Node's internals, or a V8 bucket. Files under `root` (a `file:` URL ending in `/`: this
 * package) are named from there. Only samples stamped inside one of `windows` count.
 */
export function summarizeProfiles(
  profiles: readonly CpuProfile[],
  root: string,
  windows: readonly { from: number; to: number }[] = [{ from: -Infinity, to: Infinity }],
  top = 12,
): ProfileSummary {
  const functions = new Map<string, number>();
  const areas = new Map<string, number>();
  const buckets = new Map<string, number>();
  let total = 0;
  for (const profile of profiles) {
    const frames = new Map(profile.nodes.map((node) => [node.id, node.callFrame]));
    let at = profile.startTime;
    profile.samples.forEach((id, i) => {
      const micros = profile.timeDeltas[i] ?? 0;
      at += micros;
      const frame = frames.get(id);
      if (frame === undefined || micros <= 0 || !windows.some(({ from, to }) => at >= from && at <= to)) return;
      total += micros;
      if (BUCKETS.has(frame.functionName)) return add(buckets, frame.functionName, micros);
      const where = placeOf(frame.url, root);
      add(functions, `${frame.functionName || '(anonymous)'} ${where}:${frame.lineNumber + 1}`, micros);
      add(areas, areaOf(where), micros);
    });
  }
  const share = (micros: number) => (total === 0 ? 0 : micros / total);
  const rank = (map: Map<string, number>, count: number): ProfileShare[] =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, count)
      .map(([name, micros]) => ({ name, ms: micros / 1000, share: share(micros) }));
  return {
    totalMs: total / 1000,
    idle: share(buckets.get('(idle)') ?? 0),
    gc: share(buckets.get('(garbage collector)') ?? 0),
    program: share(buckets.get('(program)') ?? 0),
    functions: rank(functions, top),
    areas: rank(areas, top),
  };
}

function add(map: Map<string, number>, key: string, micros: number): void {
  map.set(key, (map.get(key) ?? 0) + micros);
}

/** A frame's file, short: `dist/host/…`, `src/leaves/jq/…`, `node_modules/piscina/…`, `node:internal/…`, `(native)`. */
function placeOf(url: string, root: string): string {
  if (url === '') return '(native)';
  const dependency = url.lastIndexOf('/node_modules/');
  if (dependency !== -1) return url.slice(dependency + 1);
  if (url.startsWith(root)) return url.slice(root.length);
  return url.startsWith('file://') ? url.slice(url.lastIndexOf('/') + 1) : url;
}

/** The area a file belongs to: a folder of this package, a built-in leaf, a dependency, Node's internals. */
function areaOf(place: string): string {
  const parts = place.split('/');
  if (place.startsWith('node_modules/')) return parts.slice(0, parts[1]!.startsWith('@') ? 3 : 2).join('/');
  if (place.startsWith('src/leaves/') || place.startsWith('fixtures/')) return parts.slice(0, 3).join('/');
  if (place.startsWith('dist/') || place.startsWith('node:')) return parts.slice(0, 2).join('/');
  return place;
}
