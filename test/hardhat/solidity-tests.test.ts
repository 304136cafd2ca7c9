/**
 * `npx hardhat test:solidity` on the repository's own Solidity tests (contracts/test/solidity/), under
 * both profiles, as a user runs it: every supported cheatcode passes its test (Cheats.t.sol), the
 * Cosmos example passes (EpochStakingVault.t.sol: delegate, a day's end, the hook claims and emits),
 * and every test of Failing.t.sol fails for its own reason.
 */
import { expect } from "chai";
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { BOOTSTRAP, ROOT } from "../helpers/processes";

const CONFIG = path.join(ROOT, "test", "fixture-projects", "solidity-tests", "hardhat.config.ts");
const SOLIDITY = path.join(ROOT, "contracts", "test", "solidity");

/** The test functions a .t.sol file declares, with their parameter types (the runner's names). */
function declaredTests(file: string): string[] {
  const source = readFileSync(path.join(SOLIDITY, file), "utf8");
  return [...source.matchAll(/function (test\w*)\(([^)]*)\)/g)].map((m) => {
    const types = m[2].trim() === "" ? [] : m[2].split(",").map((p) => p.trim().split(/\s+/)[0]);
    return `${m[1]}(${types.join(",")})`;
  });
}

function runTask(profile: string, args: string[], out: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BOOTSTRAP, "--config", CONFIG, "test:solidity", ...args], {
      cwd: ROOT,
      env: { ...process.env, EPOCHS_PROFILE: profile, EPOCHS_SOLIDITY_TEST_VALUE: "from-env", SOLIDITY_TESTS_OUT: out },
    });
    let output = "";
    child.stdout.on("data", (d: Buffer) => (output += d.toString()));
    child.stderr.on("data", (d: Buffer) => (output += d.toString()));
    const timer = setTimeout(() => child.kill("SIGKILL"), 170_000);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

/** The lines of one suite's block of the report: `✔ name` for a pass, `N) name` for a failure. */
function outcomes(output: string, suite: string): Map<string, "pass" | "fail"> {
  const lines = output.split("\n");
  const start = lines.findIndex((l) => l.endsWith(`:${suite}`));
  const found = new Map<string, "pass" | "fail">();
  if (start < 0) return found;
  for (const line of lines.slice(start + 1)) {
    const pass = /^ {2}✔ (\S+)/.exec(line);
    const fail = /^ {2}\d+\) (\S+)/.exec(line);
    if (pass !== null) found.set(pass[1], "pass");
    else if (fail !== null) found.set(fail[1], "fail");
    // console.log lines print unindented within a suite; a blank line or the next suite ends it
    else if (line === "" || /\.sol:\w+$/.test(line)) break;
  }
  return found;
}

/** Each failing test's reason (the failure list after the counts). */
function reasons(output: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of output.matchAll(/^ {2}\d+\) (\w+)#(\S+)\n {4}Error: (.*)$/gm)) out.set(`${m[1]}#${m[2]}`, m[3]);
  return out;
}

const FAILING: Record<string, string> = {
  "test_assertEqFails()": "one is not two: 1 != 2",
  "test_revertFails()": "reverted with custom error 'NotAllowed(",
  "test_expectRevertNotMet()": "next call did not revert as expected",
  "test_expectRevertWrongReason()": "Error != expected error: target: no != another reason",
  "test_expectEmitNotMet()": "expected an emit, but no logs were emitted afterwards",
  "test_expectEmitWrongData()": "log != expected log",
  "test_expectCallNotMade()": "to be called at least 1 time, but was called 0 times",
  "test_failFlag()": "assertion failed",
  "testFuzz_findsACounterexample(uint256)": "assertion failed: 1000 >= 1000",
  "testFuzz_assumeRejectsEverything(uint256)": "The `vm.assume` cheatcode rejected too many inputs (500 allowed)",
  "testFail_isRemoved()": "`testFail*` has been removed",
};

for (const profile of ["evmos", "cosmos-evm"]) {
  describe(`test:solidity (Hardhat 2) under the ${profile} profile`, function () {
    this.timeout(180_000);
    let run: { code: number | null; output: string };

    before(async () => {
      run = await runTask(profile, ["--logs"], path.join(os.tmpdir(), `epochs-solidity-tests-${process.pid}`));
    });

    it("passes every test of the cheatcodes' suite", () => {
      const got = outcomes(run.output, "CheatsTest");
      const declared = declaredTests("Cheats.t.sol");
      expect(declared.length).to.be.at.least(40);
      for (const name of declared) expect(got.get(name), `${name}\n${run.output}`).to.equal("pass");
      expect(run.output).to.match(/✔ testFuzz_storedValue\(uint128\) \(runs: 32\)/);
    });

    it("runs an invariant test and forge's inline config", () => {
      expect(outcomes(run.output, "LedgerInvariantTest").get("invariant_totalNeverAboveWhatWasAdded()")).to.equal("pass");
      expect(run.output).to.match(/✔ invariant_totalNeverAboveWhatWasAdded\(\) \(runs: 4\)/);
      expect(run.output).to.match(/✔ testFuzz_inlineRuns\(uint8\) \(runs: 7\)/);
    });

    it("runs the Cosmos example: delegate, a day's end, the vault's hook claims rewards and emits", () => {
      const got = outcomes(run.output, "EpochStakingVaultTest");
      for (const name of declaredTests("EpochStakingVault.t.sol")) expect(got.get(name), `${name}\n${run.output}`).to.equal("pass");
    });

    it("fails every test of the failing suite, each for its own reason, and the task exits with 1", () => {
      const got = outcomes(run.output, "FailingTest");
      const why = reasons(run.output);
      expect(declaredTests("Failing.t.sol").sort()).to.deep.equal(Object.keys(FAILING).sort());
      for (const [name, reason] of Object.entries(FAILING)) {
        expect(got.get(name), name).to.equal("fail");
        expect(why.get(`FailingTest#${name}`), name).to.include(reason);
      }
      expect(run.output).to.match(/Counterexample:\n {6}x: 1000\n/);
      expect(run.code).to.equal(1);
    });

    it("prints console.log lines and the counts", () => {
      expect(run.output).to.include("hello from a Solidity test");
      const passing = ["CheatsTest", "EpochStakingVaultTest", "LedgerInvariantTest"].map((suite) => outcomes(run.output, suite).size).reduce((a, b) => a + b);
      expect(run.output).to.include(`  ${passing} passing\n  ${Object.keys(FAILING).length} failing\n`);
    });
  });
}

describe("test:solidity --grep", function () {
  this.timeout(180_000);

  it("runs only the matching tests, and exits 0 when they pass", async () => {
    const run = await runTask("evmos", ["--grep", "CheatsTest.test_(warp|prank)"], path.join(os.tmpdir(), `epochs-solidity-tests-${process.pid}`));
    expect(run.code, run.output).to.equal(0);
    expect([...outcomes(run.output, "CheatsTest").keys()].sort()).to.deep.equal([
      "test_prankAppliesToTheNextCallOnly()",
      "test_prankWithOrigin()",
      "test_prankedSenderPaysTheValue()",
      "test_warpRollFeeChainIdCoinbaseGasPrice()",
    ]);
    expect(run.output).to.not.include("FailingTest");
  });
});
