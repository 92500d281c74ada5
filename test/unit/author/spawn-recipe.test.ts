import { describe, expect, it } from 'vitest';
import { defaultBinary, defaultSpawnArgs } from '../../../src/index.js';

describe('default subprocess routing', () => {
  it.each([
    ['sh', 'echo hi', { cmd: 'sh', args: ['-c', 'echo hi'], useShell: false }],
    ['bash', 'echo hi', { cmd: 'bash', args: ['-c', 'echo hi'], useShell: false }],
    ['node', 'console.log(1)', { cmd: 'node', args: ['-e', 'console.log(1)'], useShell: false }],
    ['python', 'print(1)', { cmd: 'python3', args: ['-c', 'print(1)'], useShell: false }],
    ['python3', 'print(1)', { cmd: 'python3', args: ['-c', 'print(1)'], useShell: false }],
    ['zsh', 'echo hi', { cmd: 'zsh', args: ['-c', 'echo hi'], useShell: false }],
  ])('runs a %s body without a target', (runtime, body, recipe) => {
    expect(defaultSpawnArgs(runtime, body, null)).toEqual(recipe);
  });

  it.each([
    ['sh', 'cat', 'hello', { cmd: 'sh', args: ['-c', 'cat'], useShell: false, stdin: 'hello' }],
    ['python', 'script.py', 'input', { cmd: 'python3', args: ['script.py'], useShell: false, stdin: 'input' }],
    ['node', 'main.js', '', { cmd: 'node', args: ['main.js'], useShell: false }],
  ])('makes a %s target the program and the body its stdin', (runtime, target, body, recipe) => {
    expect(defaultSpawnArgs(runtime, body, target)).toEqual(recipe);
  });

  it('serves python with python3 and every other tag with its own binary', () => {
    expect(defaultBinary('python')).toBe('python3');
    expect(defaultBinary('perl')).toBe('perl');
  });
});
