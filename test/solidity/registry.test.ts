import { expect } from "chai";
import { Interface } from "ethers";
import { StackTraceEntryType as EdrEntryType } from "@nomicfoundation/edr";
import { ContractRegistry } from "../../src/solidity/registry";
import { decodeSourceMap, instructionIndexes, lineOf } from "../../src/solidity/source-map";
import { StackTraceEntryType } from "../../src/solidity/stack-trace";
import { compileStandard } from "../helpers/solc";

const SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

library Maths {
  function twice(uint256 a) external pure returns (uint256) {
    return a * 2;
  }
}

contract Limited {
  uint256 public immutable limit;
  address public immutable owner;

  constructor(uint256 l) {
    limit = l;
    owner = msg.sender;
  }

  function check(uint256 v) external view returns (uint256) {
    require(v <= limit, "over the limit");
    return Maths.twice(v);
  }
}

contract Wallet {
  receive() external payable {}
  fallback() external {}
  function take() external payable {}
}
`;

const compiled = compileStandard({ "contracts/Limited.sol": SOURCE });
const out = compiled.output.contracts["contracts/Limited.sol"] as unknown as Record<
  string,
  {
    evm: {
      bytecode: { object: string; linkReferences: Record<string, Record<string, Array<{ start: number; length: number }>>> };
      deployedBytecode: {
        object: string;
        immutableReferences: Record<string, Array<{ start: number; length: number }>>;
        linkReferences: Record<string, Record<string, Array<{ start: number; length: number }>>>;
      };
    };
  }
>;

function registry(): ContractRegistry {
  const r = new ContractRegistry();
  r.addCompilation(compiled.input, compiled.output as never);
  return r;
}

/** What a deployment leaves on chain: libraries linked, immutables written (as the constructor does). */
function deployedLimited(limit: bigint, library: string): Uint8Array {
  const bc = out.Limited.evm.deployedBytecode;
  let hex = bc.object;
  for (const libs of Object.values(bc.linkReferences)) for (const refs of Object.values(libs)) for (const r of refs) hex = hex.slice(0, r.start * 2) + library + hex.slice((r.start + r.length) * 2);
  const code = new Uint8Array(Buffer.from(hex, "hex"));
  for (const refs of Object.values(bc.immutableReferences)) {
    for (const r of refs) code.set(Buffer.from(limit.toString(16).padStart(64, "0"), "hex"), r.start);
  }
  return code;
}

describe("chain: the Solidity contract registry", () => {
  it("decodes solc source maps, empty fields repeating the previous entry", () => {
    expect(decodeSourceMap("1:2:0:-;;5::1:i;:7")).to.deep.equal([
      { start: 1, length: 2, file: 0, jump: "-" },
      { start: 1, length: 2, file: 0, jump: "-" },
      { start: 5, length: 2, file: 1, jump: "i" },
      { start: 5, length: 7, file: 1, jump: "i" },
    ]);
  });

  it("maps program counters to instruction indexes, skipping PUSH data", () => {
    // PUSH1 0x80, PUSH2 0x0102, PUSH0, STOP
    const idx = instructionIndexes(new Uint8Array([0x60, 0x80, 0x61, 0x01, 0x02, 0x5f, 0x00]));
    expect([idx.get(0), idx.get(2), idx.get(5), idx.get(6), idx.get(1)]).to.deep.equal([0, 1, 2, 3, undefined]);
  });

  it("counts lines in UTF-8 bytes, as solc's offsets", () => {
    const text = Buffer.from("é\nb\nc", "utf8");
    expect([lineOf(text, 0), lineOf(text, 3), lineOf(text, 5)]).to.deep.equal([1, 2, 3]);
  });

  it("recognises deployed code whatever its immutables, library addresses and metadata hash", () => {
    const r = registry();
    const a = deployedLimited(100n, "11".repeat(20));
    const b = deployedLimited(7n, "22".repeat(20));
    expect(Buffer.compare(a, b)).to.not.equal(0);
    expect(r.identify(a, false)?.name).to.equal("Limited");
    expect(r.identify(b, false)?.name).to.equal("Limited");
    // a selector the ABI does not have: the contract, no function
    expect(r.describeCall(a, Buffer.from("0e1b0a54", "hex"))).to.deep.equal({ contract: "Limited" });
    // another metadata hash (an edited comment) is the same contract
    const c = Uint8Array.from(a);
    const metaLen = (c[c.length - 2] << 8) | c[c.length - 1];
    c[c.length - 2 - metaLen + 10] ^= 0xff;
    expect(r.identify(c, false)?.name).to.equal("Limited");
    // one changed instruction is not
    const d = Uint8Array.from(a);
    d[0] ^= 0x01;
    expect(r.identify(d, false)).to.equal(undefined);
  });

  it("names the function of a call: selector, receive, fallback", () => {
    const r = registry();
    const wallet = new Uint8Array(Buffer.from(out.Wallet.evm.deployedBytecode.object, "hex"));
    const limited = deployedLimited(1n, "33".repeat(20));
    expect(r.describeCall(limited, Buffer.from("5f72f450" + "00".repeat(32), "hex"))).to.deep.equal({ contract: "Limited", function: "check" });
    expect(r.describeCall(wallet, new Uint8Array())).to.deep.equal({ contract: "Wallet", function: "receive" });
    expect(r.describeCall(wallet, Buffer.from("12345678", "hex"))).to.deep.equal({ contract: "Wallet", function: "fallback" });
    expect(r.describeCall(new Uint8Array([0x60, 0x00]), new Uint8Array())).to.equal(undefined);
  });

  it("decodes the custom errors of every compilation added, an interface's too, the later declaration of a selector winning; an ABI ethers cannot read names the contract without its functions", () => {
    const r = new ContractRegistry();
    const errors = compileStandard({
      "contracts/Errors.sol": `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;
interface IVault { error Short(uint256 have, uint256 want); }
contract Vault { function take() external pure {} }`,
    });
    r.addCompilation(errors.input, errors.output as never);
    const short = Buffer.from(`${new Interface(["error Short(uint256 have, uint256 want)"]).getError("Short")?.selector.slice(2)}${"00".repeat(31)}05${"00".repeat(31)}07`, "hex");
    const decoded = r.customError(short);
    expect([decoded?.fragment.format("full"), decoded?.args.map(String)]).to.deep.equal(["error Short(uint256 have, uint256 want)", ["5", "7"]]);
    // the same selector declared again, later, with other parameter names: the later one decodes
    const again = compileStandard({ "contracts/Again.sol": "// SPDX-License-Identifier: MIT\npragma solidity ^0.8.20;\ninterface IOther { error Short(uint256 balance, uint256 needed); }\n" });
    r.addCompilation(again.input, again.output as never);
    expect(r.customError(short)?.fragment.inputs.map((i) => i.name)).to.deep.equal(["balance", "needed"]);
    // a contract whose ABI ethers refuses: named by its code, no function, no error from it
    const broken = compileStandard({ "contracts/Broken.sol": "// SPDX-License-Identifier: MIT\npragma solidity ^0.8.20;\ncontract Broken { function f() external {} }\n" });
    const contracts = broken.output.contracts["contracts/Broken.sol"] as unknown as Record<string, { abi: unknown[]; evm: { deployedBytecode: { object: string } } }>;
    contracts.Broken.abi = [{ type: "function", name: "f", inputs: [{ type: "uint7" }] }];
    r.addCompilation(broken.input, broken.output as never);
    const code = new Uint8Array(Buffer.from(contracts.Broken.evm.deployedBytecode.object, "hex"));
    expect(r.describeCall(code, Buffer.from("26121ff0", "hex"))).to.deep.equal({ contract: "Broken" });
  });

  it("recognises init code followed by constructor arguments", () => {
    const r = registry();
    const init = new Uint8Array(Buffer.from(out.Wallet.evm.bytecode.object + "00".repeat(32), "hex"));
    expect(r.describeDeploy(init)).to.deep.equal({ contract: "Wallet" });
    expect(r.describeDeploy(init.subarray(0, 10))).to.equal(undefined);
  });

  it("finds the line and enclosing function of an instruction", () => {
    const r = registry();
    const limited = r.identify(deployedLimited(1n, "44".repeat(20)), false);
    expect(limited).to.not.equal(undefined);
    // the revert of the require: some instruction of `check` maps to line 20
    const code = deployedLimited(1n, "44".repeat(20));
    const lines = new Set<string>();
    for (const pc of instructionIndexes(code).keys()) {
      const ref = limited!.sourceAt(pc, false);
      if (ref !== undefined && ref.line === 20) lines.add(`${ref.contract}.${ref.function}`);
    }
    expect([...lines]).to.deep.equal(["Limited.check"]);
  });

  it("uses EDR's numbers for the stack-trace entry types", () => {
    for (const [name, value] of Object.entries(StackTraceEntryType)) expect(EdrEntryType[name as keyof typeof EdrEntryType], name).to.equal(value);
  });
});
