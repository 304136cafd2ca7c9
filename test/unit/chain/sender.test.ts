import { expect } from "chai";
import { createTx } from "@ethereumjs/tx";
import { Address } from "@ethereumjs/util";
import { createChainCommon } from "../../../src/chain/engine/common";
import { nativeCrypto } from "../../../src/chain/engine/crypto";
import { sentBy, withSender } from "../../../src/chain/engine/sender";

const common = createChainCommon(9000n, "prague", nativeCrypto());
const caller = new Address(new Uint8Array(20).fill(0xab));
const unsigned = () => createTx({ type: 2, nonce: 0n, gasLimit: 50_000n, maxFeePerGas: 0n, maxPriorityFeePerGas: 0n, to: new Address(new Uint8Array(20).fill(1)) }, { common, freeze: false });

describe("a transaction's sender, told to the VM", () => {
  it("sentBy: an unsigned transaction answers with the caller, is frozen, and is its own object (no view)", () => {
    const tx = unsigned();
    const sent = sentBy(tx, caller);
    expect(sent).to.equal(tx);
    expect(sent.getSenderAddress().equals(caller)).to.equal(true);
    expect(Object.isFrozen(sent)).to.equal(true);
    expect(Object.getPrototypeOf(sent)).to.equal(Object.getPrototypeOf(unsigned()));
    // EthereumJS keeps computed costs on frozen transactions only: the second answer is the cached one
    expect(sent.getDataGas()).to.equal(sent.getDataGas());
    expect(sent.cache.dataFee).to.not.equal(undefined);
  });

  it("sentBy refuses a frozen transaction (its sender could not be set)", () => {
    const frozen = createTx({ type: 2, gasLimit: 50_000n }, { common });
    expect(() => sentBy(frozen, caller)).to.throw(/frozen already/);
  });

  it("withSender: a view with the given sender that leaves the transaction as it is", () => {
    const tx = unsigned();
    Object.freeze(tx);
    const view = withSender(tx, caller);
    expect(view.getSenderAddress().equals(caller)).to.equal(true);
    expect(() => tx.getSenderAddress()).to.throw();
  });
});
