/** One block of jq's test-suite format. */
export interface JqCase {
  /** Suite file name, e.g. `jq.test`. */
  file: string;
  /** 1-based line of the program. */
  line: number;
  program: string;
  /** The input line, or null for a `%%FAIL` case. */
  input: string | null;
  /** Expected output lines (JSON values), or the expected error lines of a `%%FAIL` case. */
  expected: string[];
  /** True after `%%FAIL`: the program must not compile. */
  mustFail: boolean;
  /** Why the case is left out, when it is. */
  skip?: string;
}

/** What running one case produced: the run's result and the text written to `results`. */
export interface CaseOutcome {
  result: {
    status: number;
    exitCode?: number;
    problem?: { type: string; status: number; detail: string; [key: string]: unknown };
  };
  text: string;
}

/** Runs one case through the jq leaf: in-process or via the host. */
export type RunCase = (testCase: JqCase) => Promise<CaseOutcome>;

/** Totals and every failure with its reason. */
export interface ConformanceReport {
  passed: number;
  failed: number;
  skipped: number;
  failures: { file: string; line: number; program: string; reason: string }[];
}

export function parseJqTests(text: string, file: string): JqCase[];
export function judgeCase(testCase: JqCase, outcome: CaseOutcome): string | undefined;
export function sameJson(a: unknown, b: unknown): boolean;
