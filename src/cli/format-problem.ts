import type { ProblemDetails } from '../contracts/problem.js';

/**
 * A Problem as terminal lines: its title and type, then `detail`, `instance` and every
 * extension one per line (lists of plain values comma-joined, anything else as JSON).
 */
export function formatProblem(problem: ProblemDetails): string {
  const { type, title, status: _status, detail, instance, ...extensions } = problem;
  const lines = [`problem: ${title} (${type})`, `  detail: ${detail}`];
  if (instance !== undefined) lines.push(`  instance: ${instance}`);
  for (const [key, value] of Object.entries(extensions)) {
    lines.push(`  ${key}: ${formatValue(value)}`);
  }
  return `${lines.join('\n')}\n`;
}

function formatValue(value: unknown): string {
  if (typeof value === 'string') return value;
  if (Array.isArray(value) && value.every((item) => item === null || typeof item !== 'object')) return value.join(', ');
  return JSON.stringify(value);
}
