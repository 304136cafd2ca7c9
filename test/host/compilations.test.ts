/**
 * The project's compilations as every chain loads them (src/host/solidity/compilations.ts): a build-info file
 * is read and its contracts built once per process, and every registry (each Hardhat 3 connection's)
 * shares them; a file written again is read again.
 */
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect } from "chai";
import { getBytes } from "ethers";
import { ContractRegistry } from "../../src/solidity/registry";
import { hardhat2BuildInfos, loadCompilations } from "../../src/host/solidity/compilations";
import { compileStandard } from "../helpers/solc";

const source = (n: number): string => `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;
contract Counter { uint256 public x; function inc() external { x += ${n}; } }
`;

describe("loading the project's compilations", () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(path.join(tmpdir(), "epochs-compilations-"));
    mkdirSync(path.join(dir, "build-info"));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const write = (n: number): { deployed: Uint8Array } => {
    const c = compileStandard({ "contracts/Counter.sol": source(n) });
    writeFileSync(path.join(dir, "build-info", "one.json"), JSON.stringify({ input: c.input, output: c.output }));
    return { deployed: getBytes(`0x${c.output.contracts["contracts/Counter.sol"].Counter.evm.deployedBytecode.object}`) };
  };
  const load = (): ContractRegistry => {
    const registry = new ContractRegistry();
    loadCompilations(hardhat2BuildInfos(dir), registry);
    return registry;
  };

  it("reads a build-info file once: every registry shares its contracts, until the file is written again", () => {
    const first = write(1);
    const [a, b] = [load(), load()];
    const counter = a.identify(first.deployed, false);
    expect(counter?.name).to.equal("Counter");
    // the same contract object: neither read nor built again
    expect(b.identify(first.deployed, false)).to.equal(counter);

    // compiled again (other code, another size): read again, the new code known
    const second = write(100);
    utimesSync(path.join(dir, "build-info", "one.json"), new Date(), new Date(Date.now() + 1000));
    const c = load();
    expect(c.identify(second.deployed, false)?.name).to.equal("Counter");
    expect(c.identify(second.deployed, false)).to.not.equal(counter);
    // registries made before keep what they loaded
    expect(a.identify(first.deployed, false)).to.equal(counter);
  });
});
