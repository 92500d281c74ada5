import type { ConformanceReport, RunCase } from './cases.d.mts';

export const JQ_TEST_ENV: Readonly<Record<string, string>>;
export function runConformance(files: string[], runCase: RunCase): Promise<ConformanceReport>;
export function hostRunner(host: {
  exec(request: object): Promise<{ result: object; channels: Record<string, { text: string }> }>;
}): Promise<{ runCase: RunCase; close(): Promise<void> }>;
export function inProcessRunner(
  Executor: new (options: { runtime: string; glyph: string }) => { run(args: never): Promise<unknown> },
): Promise<{ runCase: RunCase; close(): Promise<void> }>;
export function directRunner(): Promise<{ runCase: RunCase; close(): Promise<void> }>;
