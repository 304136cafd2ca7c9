/**
 * Solidity test results in the shape of Hardhat 3's reporter: each test contract as
 * `source:Contract`, a line per test (`✔ name (runs: N)` or a numbered failure), console.log lines of
 * failures, the counts, then each failure's reason and counterexample.
 */
import type { SuiteResult, TestResult } from "./types";

export interface Totals {
  passed: number;
  failed: number;
  skipped: number;
}

export class SolidityTestReporter {
  private readonly _failures: Array<{ contract: string; test: TestResult }> = [];
  private _first = true;
  readonly totals: Totals = { passed: 0, failed: 0, skipped: 0 };

  constructor(
    private readonly _write: (text: string) => void,
    /** The project's path of a source as the compiler names it. */
    private readonly _userSource: (sourceName: string) => string = (s) => s,
    /** Prints passing tests' console.log lines too. */
    private readonly _verbose = false,
    /** The number of the first failure (Hardhat 3's `test` task numbers the failures of all its runners in one sequence). */
    private readonly _firstFailure = 1,
  ) {}

  suite(s: SuiteResult): void {
    if (s.tests.length === 0) return;
    if (!this._first) this._write("\n");
    this._first = false;
    this._write(`${this._userSource(s.source)}:${s.contract}\n`);
    for (const t of s.tests) {
      if (t.status === "Failure" || this._verbose) for (const line of t.logs) this._write(`${line}\n`);
      const details = t.runs !== undefined ? ` (runs: ${t.runs})` : "";
      if (t.status === "Success") {
        this.totals.passed++;
        this._write(`  ✔ ${t.name}${details}${t.gas !== undefined ? ` (gas: ${t.gas})` : ""}\n`);
      } else if (t.status === "Skipped") {
        this.totals.skipped++;
        this._write(`  - ${t.name}\n`);
      } else {
        this._failures.push({ contract: s.contract, test: t });
        this.totals.failed++;
        this._write(`  ${this._firstFailure + this._failures.length - 1}) ${t.name}\n`);
      }
    }
  }

  /**
   * Call once, after the last suite: writes the counts and every failure's reason, or (`summary`
   * false: Hardhat 3's `test` task prints one summary for all its runners) returns the failures' text.
   */
  end(summary = true): string {
    let failures = "";
    this._failures.forEach(({ contract, test }, i) => {
      failures += `\n  ${this._firstFailure + i}) ${contract}#${test.name}\n`;
      failures += `    Error: ${test.reason ?? "Unknown error"}\n`;
      if (test.counterexample !== undefined) {
        failures += "    Counterexample:\n";
        for (const [k, v] of Object.entries(test.counterexample)) failures += `      ${k}: ${v}\n`;
      }
    });
    if (!summary) return failures;
    this._write(`\n\n  ${this.totals.passed} passing\n`);
    if (this.totals.failed > 0) this._write(`  ${this.totals.failed} failing\n`);
    if (this.totals.skipped > 0) this._write(`  ${this.totals.skipped} skipped\n`);
    this._write(failures);
    return failures;
  }
}
