import { expect } from "chai";
import { createTx, createTxFromRLP } from "@ethereumjs/tx";
import { Address, createAddressFromPrivateKey, hexToBytes } from "@ethereumjs/util";
import { createChainCommon } from "../../src/chain/engine/common";
import { nativeCrypto } from "../../src/chain/base/crypto";
import { sentBy, signedBy, withSender } from "../../src/chain/engine/sender";

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

  it("signedBy: a signed transaction's sender recovered once, its own answer, the key kept, then frozen", () => {
    const key = hexToBytes("0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d");
    const raw = unsigned().sign(key).serialize();
    let recoveries = 0;
    const native = nativeCrypto();
    const recover = native.ecrecover as NonNullable<typeof native.ecrecover>;
    const counting = createChainCommon(9000n, "prague", { ...native, ecrecover: (...a: Parameters<typeof recover>) => (recoveries++, recover(...a)) });
    const tx = signedBy(createTxFromRLP(raw, { common: counting, freeze: false }));
    expect(recoveries).to.equal(1);
    expect(Object.isFrozen(tx)).to.equal(true);
    expect(tx.getSenderAddress().equals(createAddressFromPrivateKey(key))).to.equal(true);
    expect(Object.prototype.hasOwnProperty.call(tx, "getSenderAddress")).to.equal(true);
    // EthereumJS's own checks read the kept key: no second recovery
    expect(tx.verifySignature()).to.equal(true);
    expect(tx.getSenderPublicKey()).to.equal(tx.cache.senderPubKey);
    expect(recoveries).to.equal(1);
    // frozen: the hash is computed once and kept
    expect(tx.hash()).to.equal(tx.hash());
  });

  it("signedBy refuses a signature that does not recover", () => {
    const signed = unsigned().sign(hexToBytes("0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d"));
    const bad = createTx({ ...signed.toJSON(), type: 2, r: "0x" + "ff".repeat(32) } as never, { common, freeze: false });
    expect(() => signedBy(bad)).to.throw();
    expect(Object.isFrozen(bad)).to.equal(false);
  });
});
