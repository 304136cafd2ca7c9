/** A Solidity test run's inputs and results, as both hosts and the reporter see them. */
import type { InterfaceAbi } from "ethers/abi";

export interface TestContractArtifact {
  /** The source as the compiler knows it ("test/Vault.t.sol", "project/test/Vault.t.sol"). */
  sourceName: string;
  contractName: string;
  abi: InterfaceAbi;
  bytecode: string;
  deployedBytecode: string;
}

export type TestStatus = "Success" | "Failure" | "Skipped";

export interface TestResult {
  /** The function's signature (`testTransfer(uint256)`). */
  name: string;
  status: TestStatus;
  reason?: string;
  /** Gas of the call (the median run's for a fuzz test). */
  gas?: bigint;
  /** Inputs run (fuzz tests). */
  runs?: number;
  counterexample?: Record<string, string>;
  /** console.log lines of the test (the failing run's for a fuzz test). */
  logs: string[];
}

export interface SuiteResult {
  source: string;
  contract: string;
  tests: TestResult[];
}
