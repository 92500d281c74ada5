import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { LEAF_FRAME_CHARS, LEAF_STACK_FRAMES, leafFrames } from '../../../../src/thread-host/dispatch/leaf-stack.js';

const ROOT = new URL('../../../../', import.meta.url).href;
const leafFrame = (n: number) => `    at step${n} (file:///srv/leaves/my-leaf/index.js:${n}:5)`;

describe('leafFrames', () => {
  it("keeps the leaf's frames and drops Node's and this package's own (built or source)", () => {
    const stack = [
      'TypeError: bad config',
      leafFrame(1),
      `    at Upper.run (${ROOT}src/leaves/common/dist/index.js:3:1)`,
      `    at handle (${ROOT}dist/worker/task-handler.js:70:9)`,
      `    at handle (${fileURLToPath(`${ROOT}src/worker/task-handler.ts`)}:70:9)`,
      '    at process.processTicksAndRejections (node:internal/process/task_queues:95:5)',
      '    at node:internal/main/worker_thread:1:1',
    ].join('\n');
    expect(leafFrames(stack)).toEqual([
      'step1 (file:///srv/leaves/my-leaf/index.js:1:5)',
      `Upper.run (${ROOT}src/leaves/common/dist/index.js:3:1)`,
    ]);
  });

  it('is bounded in frames and in characters per frame, whatever the leaf made its stack', () => {
    const long = `    at ${'x'.repeat(5000)} (file:///srv/leaf.js:1:1)`;
    const stack = ['Error: deep', long, ...Array.from({ length: 50 }, (_, i) => leafFrame(i))].join('\n');
    const frames = leafFrames(stack);
    expect(frames).toHaveLength(LEAF_STACK_FRAMES);
    expect(frames[0]).toHaveLength(LEAF_FRAME_CHARS);
    expect(frames[0]!.endsWith('…')).toBe(true);
  });

  it('is empty for a stack that is not a string', () => {
    expect(leafFrames(undefined)).toEqual([]);
    expect(leafFrames({ toString: () => 'x' })).toEqual([]);
  });
});
