import { fileURLToPath } from 'node:url';

/** At most this many frames of a leaf's stack enter an `executor-threw` Problem. */
export const LEAF_STACK_FRAMES = 10;
/** Each frame is cut to this many characters. */
export const LEAF_FRAME_CHARS = 300;
// The stack is the leaf's text: only its head is read, however long the leaf made it.
const READ_CHARS = 16 * 1024;

// This package's own code (the worker, the author classes, compiled in dist/ or, under the
// tests, src/): frames in it are the framework's, not the leaf author's. The built-in leaves
// under src/leaves are leaves like any other.
const ROOT_URL = new URL('../../../', import.meta.url).href;
const OWN = ['dist/', 'src/'].flatMap((dir) => [`${ROOT_URL}${dir}`, fileURLToPath(`${ROOT_URL}${dir}`)]);
const LEAVES = [`${ROOT_URL}src/leaves/`, fileURLToPath(`${ROOT_URL}src/leaves/`)];

/**
 * The frames of a thrown error's stack that are the leaf's own, so its author can find the
 * line: Node's internals and this package's frames are dropped; at most
 * {@link LEAF_STACK_FRAMES} frames of at most {@link LEAF_FRAME_CHARS} characters each, without
 * the `at ` prefix. Empty when the stack has none (or is not a string).
 */
export function leafFrames(stack: unknown): string[] {
  if (typeof stack !== 'string') return [];
  const frames: string[] = [];
  for (const line of stack.slice(0, READ_CHARS).split('\n')) {
    const frame = /^\s+at (.+)$/.exec(line)?.[1];
    if (frame === undefined || !isLeafFrame(frame)) continue;
    frames.push(frame.length > LEAF_FRAME_CHARS ? `${frame.slice(0, LEAF_FRAME_CHARS - 1)}…` : frame);
    if (frames.length === LEAF_STACK_FRAMES) break;
  }
  return frames;
}

function isLeafFrame(frame: string): boolean {
  if (/(^|\()node:/.test(frame)) return false;
  return !OWN.some((dir) => frame.includes(dir)) || LEAVES.some((dir) => frame.includes(dir));
}
