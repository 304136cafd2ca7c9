/**
 * The node log's contract names from artifacts (src/hardhat/node-log/artifact-names.ts): deployed on
 * a real in-process chain, with a constructor argument, an immutable and a metadata tail that differs
 * from the artifact's (the source changed by a comment only).
 */
import { expect } from "chai";
import { Interface, getBytes } from "ethers";
import { ArtifactContractNames, withoutMetadata } from "../../../src/hardhat/node-log/artifact-names";
import { inProcess } from "../../helpers/harness";
import { compile } from "../../helpers/solc";

const SOURCE = `
// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;
contract Vault {
  uint256 public immutable cap;
  constructor(uint256 c) { cap = c; }
  function deposit() external payable {}
}
contract Other { function ping() external pure returns (uint256) { return 1; } }
interface IThing { function thing() external; }`;

describe("node log: contract names from artifacts", function () {
  this.timeout(60_000);
  const built = compile(SOURCE);
  // the same contracts compiled from a source that differs by a comment: another metadata hash
  const edited = compile(`${SOURCE}\n// edited`);
  const names = new ArtifactContractNames(Object.entries(built).map(([contractName, c]) => ({ contractName, ...c })));

  it("strips solc's metadata tail, and only that", () => {
    const code = getBytes(built.Vault.deployedBytecode);
    const stripped = withoutMetadata(code);
    expect(stripped.length).to.be.lessThan(code.length);
    expect(Buffer.from(code.subarray(0, stripped.length)).equals(Buffer.from(stripped))).to.equal(true);
    expect(withoutMetadata(getBytes("0x6001600101"))).to.deep.equal(getBytes("0x6001600101"));
    expect(built.Vault.deployedBytecode).to.not.equal(edited.Vault.deployedBytecode);
  });

  it("names a deployment by its init code, constructor arguments and another metadata hash notwithstanding", () => {
    const args = new Interface(built.Vault.abi as never).encodeDeploy([42n]).slice(2);
    expect(names.describeDeploy(getBytes(edited.Vault.bytecode + args))).to.deep.equal({ contract: "Vault" });
    expect(names.describeDeploy(getBytes(edited.Other.bytecode))).to.deep.equal({ contract: "Other" });
    expect(names.describeDeploy(getBytes("0x6080604052"))).to.equal(undefined);
  });

  it("names a call by the callee's deployed code (its immutable filled in) and the function by its selector", async () => {
    const h = await inProcess();
    try {
      const [from] = await h.request<string[]>("eth_accounts");
      const vault = new Interface(edited.Vault.abi as never);
      const hash = await h.request<string>("eth_sendTransaction", [{ from, data: edited.Vault.bytecode + vault.encodeDeploy([42n]).slice(2) }]);
      const { contractAddress } = await h.request<{ contractAddress: string }>("eth_getTransactionReceipt", [hash]);
      const code = getBytes(await h.request<string>("eth_getCode", [contractAddress, "latest"]));
      expect(names.describeCall(code, getBytes(vault.encodeFunctionData("deposit")))).to.deep.equal({ contract: "Vault", function: "deposit" });
      expect(names.describeCall(code, getBytes("0x12345678"))).to.deep.equal({ contract: "Vault" });
      expect(names.describeCall(code, new Uint8Array())).to.deep.equal({ contract: "Vault" });
      expect(names.describeCall(getBytes(edited.Other.deployedBytecode), new Uint8Array())).to.deep.equal({ contract: "Other" });
      expect(names.describeCall(new Uint8Array(), new Uint8Array())).to.equal(undefined);
    } finally {
      await h.close();
    }
  });
});
