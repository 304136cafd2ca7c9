/** src/chain/base/vm-errors.ts and src/solidity/revert-data.ts: revert data decoded once (geth's lenient reading, the strict one Hardhat's texts follow) and EthereumJS's error texts. */
import { expect } from "chai";
import { AbiCoder } from "ethers";
import { cleanVmError, describeFailure } from "../../src/chain/base/vm-errors";
import { panicCode, revertReason, unpackRevert } from "../../src/solidity/revert-data";

describe("chain: EthereumJS error texts", () => {
  it("keeps the sentence and drops every block or transaction dump, never leaving `(vm hf=` behind", () => {
    const cases: Array<[string, string]> = [
      [
        "sender doesn't have enough funds to send tx. The upfront cost is: 10 and the sender's account (0xab) only has: 1 (vm hf=osaka -> block number=3 hash=0x12 hf=osaka baseFeePerGas=7 txs=0 uncles=0) -> tx type=2 hash=0x34 nonce=0 value=10 signed=true hf=osaka",
        "sender doesn't have enough funds to send tx. The upfront cost is: 10 and the sender's account (0xab) only has: 1",
      ],
      ["invalid transaction (vm hf=osaka", "invalid transaction"],
      ["gasLimit is too low (tx type=0 hash=0x1 nonce=0)", "gasLimit is too low"],
      ["block gas limit reached (block number=5 hash=0x2)", "block gas limit reached"],
      ["nothing appended", "nothing appended"],
    ];
    for (const [raw, clean] of cases) {
      const out = cleanVmError(new Error(raw));
      expect(out).to.equal(clean);
      expect(out).to.not.include("(vm hf");
    }
  });
});

const bytes = (hex: string): Uint8Array => Uint8Array.from(Buffer.from(hex.replace(/^0x/, ""), "hex"));
const encode = (selector: string, types: string[], values: unknown[]): Uint8Array => bytes(selector + AbiCoder.defaultAbiCoder().encode(types, values).slice(2));

describe("revert data (vm-errors)", () => {
  const reason = encode("08c379a0", ["string"], ["too big"]);

  it("reads Error(string) and Panic(uint256), nothing else", () => {
    expect(revertReason(reason)).to.equal("too big");
    expect(revertReason(reason, { strict: true })).to.equal("too big");
    expect(panicCode(encode("4e487b71", ["uint256"], [0x11]))).to.equal(0x11n);
    expect(revertReason(encode("4e487b71", ["uint256"], [0x11]))).to.equal(undefined);
    expect(panicCode(reason)).to.equal(undefined);
    expect(revertReason(bytes("deadbeef"))).to.equal(undefined);
    expect(revertReason(new Uint8Array())).to.equal(undefined);
  });

  it("refuses a body that does not fit, and in strict mode an unpadded string or invalid UTF-8", () => {
    expect(revertReason(bytes("08c379a0ff"))).to.equal(undefined);
    // offset and length beyond the data
    expect(revertReason(encode("08c379a0", ["uint256", "uint256"], [0x40, 1]))).to.equal(undefined);
    const unpadded = reason.subarray(0, reason.length - 25); // "too big" (7 bytes) without its padding
    expect(revertReason(unpadded)).to.equal("too big");
    expect(revertReason(unpadded, { strict: true })).to.equal(undefined);
    const invalid = encode("08c379a0", ["bytes"], [bytes("ff")]);
    expect(revertReason(invalid)).to.equal("\ufffd");
    expect(revertReason(invalid, { strict: true })).to.equal(undefined);
  });

  it("words failures as geth does", () => {
    expect(describeFailure("revert", reason)).to.equal("execution reverted: too big");
    expect(describeFailure("revert", new Uint8Array())).to.equal("execution reverted");
    expect(describeFailure("out of gas", new Uint8Array())).to.equal("out of gas");
    expect(unpackRevert(encode("4e487b71", ["uint256"], [0x12]))).to.equal("division or modulo by zero");
    expect(unpackRevert(encode("4e487b71", ["uint256"], [0x99]))).to.equal("unknown panic code: 0x99");
  });
});
