/**
 * Every kind of failure a Solidity execution can have, on the contracts of
 * test/fixtures/solidity/Failures.sol (compiled once per process): the EDR differential test
 * (test/hardhat/solidity-errors.test.ts) and the test of traces without a second run
 * (test/chain/failure-without-replay.test.ts) send the same ones.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { Interface } from "ethers";
import { compileStandard } from "./solc";

export const FAILURES_SOURCE = "contracts/Failures.sol";
export const failuresCompilation = compileStandard({ [FAILURES_SOURCE]: readFileSync(path.join(__dirname, "../fixtures/solidity/Failures.sol"), "utf8") });
export const failureContracts = failuresCompilation.output.contracts[FAILURES_SOURCE];
export const failureInterface = (name: string): Interface => new Interface(failureContracts[name].abi as never);

export interface FailureCase {
  name: string;
  /** The transaction's fields (to, data, value, gas) once the contracts are deployed at `addresses`. */
  tx: () => Record<string, unknown>;
}

/** The cases, given where Target, Caller, NoFallback and Limited (constructed with 100) were deployed. */
export function failureCases(addresses: Record<string, string>): FailureCase[] {
  const target = failureInterface("Target");
  const caller = failureInterface("Caller");
  return [
    { name: "require with a reason", tx: () => ({ to: addresses.Target, data: target.encodeFunctionData("failReason") }) },
    { name: "a custom error", tx: () => ({ to: addresses.Target, data: target.encodeFunctionData("failCustom") }) },
    { name: "revert without a reason", tx: () => ({ to: addresses.Target, data: target.encodeFunctionData("failEmpty") }) },
    { name: "a panic (overflow)", tx: () => ({ to: addresses.Target, data: target.encodeFunctionData("overflow", [5]) }) },
    { name: "a panic (division by zero)", tx: () => ({ to: addresses.Target, data: target.encodeFunctionData("divide", [5, 0]) }) },
    { name: "a revert through another contract", tx: () => ({ to: addresses.Caller, data: caller.encodeFunctionData("callThrough") }) },
    { name: "a call to an account without code", tx: () => ({ to: addresses.Caller, data: caller.encodeFunctionData("callNobody", ["0x000000000000000000000000000000000000dEaD"]) }) },
    { name: "a non-payable function called with value", tx: () => ({ to: addresses.Target, data: target.encodeFunctionData("nonPayable"), value: "0x1" }) },
    { name: "an unrecognised selector without fallback", tx: () => ({ to: addresses.NoFallback, data: "0x12345678" }) },
    { name: "value to a contract without fallback or receive", tx: () => ({ to: addresses.NoFallback, value: "0x1" }) },
    { name: "a require in a contract with immutables", tx: () => ({ to: addresses.Limited, data: failureInterface("Limited").encodeFunctionData("check", [101]) }) },
    { name: "a constructor called without its parameters", tx: () => ({ data: `0x${failureContracts.Caller.evm.bytecode.object}` }) },
    { name: "running out of gas", tx: () => ({ to: addresses.Target, data: target.encodeFunctionData("spin"), gas: "0x30000" }) },
  ];
}
