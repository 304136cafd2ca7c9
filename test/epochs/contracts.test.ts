/**
 * contracts/IEpochs.sol, IEpochHooks.sol and the examples compile with solc 0.8.30 (the npm package,
 * no download), and the Solidity interfaces match the ABI the precompile and the hook calls use.
 */
import { expect } from "chai";
import { Interface, type InterfaceAbi } from "ethers";
import fs from "node:fs";
import path from "node:path";
import solc from "solc";
import { EPOCHS_ABI, HOOKS_ABI } from "../../src/epochs/precompile";

const CONTRACTS = path.join(__dirname, "../../contracts");
const FILES = ["IEpochs.sol", "IEpochHooks.sol", "examples/WeeklyRewards.sol", "examples/DailyCounter.sol", "examples/RevertingHook.sol"];

interface Output {
  errors?: Array<{ severity: string; formattedMessage: string }>;
  contracts: Record<string, Record<string, { abi: InterfaceAbi }>>;
}

let compiled: Output | undefined;

function compileAll(): Output {
  if (compiled !== undefined) return compiled;
  const sources = Object.fromEntries(FILES.map((f) => [f, { content: fs.readFileSync(path.join(CONTRACTS, f), "utf8") }]));
  const input = { language: "Solidity", sources, settings: { outputSelection: { "*": { "*": ["abi"] } } } };
  const findImports = (p: string) => {
    const file = path.join(CONTRACTS, p.replace(/^(\.\.\/)+/, ""));
    return fs.existsSync(file) ? { contents: fs.readFileSync(file, "utf8") } : { error: `not found: ${p}` };
  };
  compiled = JSON.parse(solc.compile(JSON.stringify(input), { import: findImports })) as Output;
  return compiled;
}

const signatures = (i: Interface) => {
  const out: string[] = [];
  i.forEachFunction((f) => out.push(`${f.format("full")}`));
  i.forEachEvent((e) => out.push(e.format("full")));
  return out.sort();
};

describe("epochs Solidity interfaces", function () {
  this.timeout(120_000);

  it("compile without errors or warnings", () => {
    const out = compileAll();
    expect((out.errors ?? []).map((e) => e.formattedMessage)).to.deep.equal([]);
    expect(Object.keys(out.contracts["examples/WeeklyRewards.sol"])).to.include("WeeklyRewards");
    expect(Object.keys(out.contracts["examples/RevertingHook.sol"])).to.have.members(["RevertingHook", "RegisterThenRevert"]);
  });

  it("IEpochs matches the precompile's ABI (functions, struct, events)", () => {
    const sol = new Interface(compileAll().contracts["IEpochs.sol"].IEpochs.abi);
    expect(signatures(sol)).to.deep.equal(signatures(EPOCHS_ABI));
  });

  it("IEpochHooks matches the calldata the chain sends", () => {
    const sol = new Interface(compileAll().contracts["IEpochHooks.sol"].IEpochHooks.abi);
    expect(signatures(sol)).to.deep.equal(signatures(HOOKS_ABI));
  });

  it("the examples implement IEpochHooks", () => {
    const out = compileAll();
    for (const [file, name] of [
      ["examples/WeeklyRewards.sol", "WeeklyRewards"],
      ["examples/DailyCounter.sol", "DailyCounter"],
      ["examples/RevertingHook.sol", "RevertingHook"],
    ]) {
      const abi = new Interface(out.contracts[file][name].abi);
      for (const fn of ["beforeEpochStart", "afterEpochEnd"]) expect(abi.getFunction(fn)?.selector, `${name}.${fn}`).to.equal(HOOKS_ABI.getFunction(fn)?.selector);
    }
  });
});
