import { expect } from "chai";
import { createFeeMarket1559Tx, createLegacyTx } from "@ethereumjs/tx";
import { Wallet, Transaction } from "ethers";
import { createChainCommon } from "../../../src/chain/common";
import { nativeCrypto } from "../../../src/chain/crypto";

const KEY = new Uint8Array(32).fill(7);
const TO = `0x${"11".repeat(20)}` as const;

describe("chain: native secp256k1 signing (the transactions the node signs for its accounts)", () => {
  const plain = createChainCommon(9000n, "osaka"); // EthereumJS's own (pure-JS) signer
  const native = createChainCommon(9000n, "osaka", nativeCrypto());

  it("signs typed and legacy transactions byte for byte as EthereumJS's own signer (RFC 6979 nonces)", () => {
    for (let i = 0; i < 16; i++) {
      const typed = { nonce: BigInt(i), gasLimit: 21_000n, maxFeePerGas: 10n ** 9n, maxPriorityFeePerGas: BigInt(i), to: TO, value: BigInt(i) * 7n, chainId: 9000n };
      expect(createFeeMarket1559Tx(typed, { common: native }).sign(KEY).serialize()).to.deep.equal(createFeeMarket1559Tx(typed, { common: plain }).sign(KEY).serialize());
      const legacy = { nonce: BigInt(i), gasLimit: 21_000n, gasPrice: 10n ** 9n, to: TO, value: BigInt(i), data: new Uint8Array([i]) };
      expect(createLegacyTx(legacy, { common: native }).sign(KEY).serialize()).to.deep.equal(createLegacyTx(legacy, { common: plain }).sign(KEY).serialize());
    }
  });

  it("the signature verifies outside EthereumJS: ethers recovers the key's address", () => {
    const signed = createFeeMarket1559Tx({ nonce: 3n, gasLimit: 21_000n, maxFeePerGas: 7n, to: TO, chainId: 9000n }, { common: native }).sign(KEY);
    const parsed = Transaction.from("0x" + Buffer.from(signed.serialize()).toString("hex"));
    expect(parsed.from).to.equal(new Wallet("0x" + Buffer.from(KEY).toString("hex")).address);
  });
});
