import { expect } from "chai";
import { cleanVmError } from "../../../src/chain/block/block-producer";

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
