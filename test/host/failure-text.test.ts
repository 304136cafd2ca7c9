import { expect } from "chai";
import { AbiCoder, id } from "ethers";
import { hardhatFailureMessage as failureMessage } from "../helpers/hardhat-failure-text";
import { failureText } from "../../src/host/solidity/failure-text";

const bytes = (hex: string): Uint8Array => Uint8Array.from(Buffer.from(hex.replace(/^0x/, ""), "hex"));
const encode = (selector: string, types: string[], values: unknown[]): Uint8Array => bytes(selector + AbiCoder.defaultAbiCoder().encode(types, values).slice(2));

describe("failure texts of the Hardhat 3 host", function () {
  // Hardhat 2's own decoders (src/hardhat/errors.ts borrows them) are the reference
  const cases: Array<[string, { error?: string; returnValue: Uint8Array }]> = [
    ["a reason string", { returnValue: encode("08c379a0", ["string"], ["too big"]) }],
    ["an empty revert", { returnValue: new Uint8Array() }],
    ["an overflow panic", { returnValue: encode("4e487b71", ["uint256"], [0x11]) }],
    ["an unknown panic", { returnValue: encode("4e487b71", ["uint256"], [0x99]) }],
    ["a custom error", { returnValue: bytes(`${id("NothingToClaim()").slice(2, 10)}`) }],
    ["a malformed reason", { returnValue: bytes("08c379a0ff") }],
    ["out of gas", { error: "out of gas", returnValue: new Uint8Array() }],
    ["an invalid opcode", { error: "invalid opcode", returnValue: new Uint8Array() }],
    ["another VM error", { error: "stack underflow", returnValue: new Uint8Array() }],
  ];
  for (const [what, f] of cases) {
    it(`says ${what} as Hardhat does`, () => {
      expect(failureText(f)).to.equal(failureMessage(f));
    });
  }

  it("names a custom error the project's contracts declare", () => {
    expect(failureText({ returnValue: bytes("deadbeef") }, () => "NothingToClaim()")).to.equal("VM Exception while processing transaction: reverted with custom error 'NothingToClaim()'");
  });
});
