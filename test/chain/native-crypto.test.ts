import { expect } from "chai";
import { bytesToHex } from "@ethereumjs/util";
import { Transaction, Wallet, getBytes, hexlify, keccak256 as ethersKeccak } from "ethers";
import { createTx, createTxFromRLP } from "@ethereumjs/tx";
import { createChainCommon } from "../../src/chain/engine/common";
import { addressOfKey, nativeCrypto } from "../../src/chain/base/crypto";
import { keccak256, nativeKeccak } from "../../src/utils/keccak";

describe("chain: native crypto (customCrypto)", () => {
  it("loads the keccak package's prebuilt sponge on this platform", () => {
    expect(nativeKeccak).to.equal(true);
  });

  it("keccak256 matches the pure-JS hash for every length around the sponge's rate, and for views into larger buffers", () => {
    const big = new Uint8Array(700).map((_, i) => (i * 131 + 7) & 0xff);
    // 136 bytes is keccak-256's rate: lengths on both sides of one and several blocks
    for (const len of [0, 1, 31, 32, 33, 64, 135, 136, 137, 271, 272, 273, 532, 600]) {
      const view = big.subarray(13, 13 + len);
      expect(bytesToHex(keccak256(view)), `length ${len}`).to.equal(ethersKeccak(view));
      expect(bytesToHex(keccak256(Buffer.from(view))), `Buffer of length ${len}`).to.equal(ethersKeccak(view));
    }
    expect(bytesToHex(keccak256(new Uint8Array()))).to.equal("0xc5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470");
  });

  it("returns a fresh 32-byte array each time (not a view of a shared pool)", () => {
    const a = keccak256(new Uint8Array([1]));
    const b = keccak256(new Uint8Array([2]));
    expect(a.length).to.equal(32);
    expect(a.byteOffset).to.equal(0);
    expect(a.buffer.byteLength).to.equal(32);
    expect(bytesToHex(a)).to.not.equal(bytesToHex(b));
  });

  it("a transaction decoded with the chain's common has the hash and sender ethers gives it", async () => {
    const wallet = new Wallet("0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d");
    const common = createChainCommon(9000n, "osaka", nativeCrypto());
    for (const type of [0, 2]) {
      const fee = type === 2 ? { maxFeePerGas: 10n ** 10n, maxPriorityFeePerGas: 1n } : { gasPrice: 10n ** 10n };
      const raw = await wallet.signTransaction(Transaction.from({ type, chainId: 9000n, nonce: 5, to: wallet.address, value: 7n, gasLimit: 21000n, ...fee }));
      const parsed = Transaction.from(raw);
      const tx = createTxFromRLP(getBytes(raw), { common });
      expect(bytesToHex(tx.hash()), `type ${type}`).to.equal(parsed.hash);
      expect(tx.getSenderAddress().toString(), `type ${type}`).to.equal(wallet.address.toLowerCase());
    }
  });

  it("signs as ethers does: the same signature without extra entropy, a valid one (recovering the signer) with it", async () => {
    const key = "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d";
    const wallet = new Wallet(key);
    const common = createChainCommon(9000n, "osaka", nativeCrypto());
    for (const type of [0, 2]) {
      const fields = {
        type,
        chainId: 9000n,
        nonce: 3,
        to: wallet.address,
        value: 1n,
        gasLimit: 21000n,
        data: "0x1234",
        ...(type === 2 ? { maxFeePerGas: 10n ** 10n, maxPriorityFeePerGas: 2n } : { gasPrice: 10n ** 10n }),
      };
      const unsigned = createTx(fields as never, { common });
      const deterministic = unsigned.sign(getBytes(key), false);
      expect(bytesToHex(deterministic.serialize()), `type ${type}`).to.equal(await wallet.signTransaction(Transaction.from({ ...fields, to: wallet.address })));
      const hedged = unsigned.sign(getBytes(key));
      expect(Transaction.from(bytesToHex(hedged.serialize())).from, `type ${type}`).to.equal(wallet.address);
      expect(hedged.getSenderAddress().toString()).to.equal(wallet.address.toLowerCase());
    }
  });

  it("derives the address of a private key as ethers does", () => {
    for (const key of ["0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80", "0x0000000000000000000000000000000000000000000000000000000000000001", `0x${"fe".repeat(31)}01`]) {
      expect(addressOfKey(getBytes(key)).toString(), key).to.equal(new Wallet(key).address.toLowerCase());
    }
  });

  it("answers a key's address from its cache the second time, in an Address the caller may change", () => {
    const key = getBytes(`0x${"5a".repeat(32)}`);
    const expected = new Wallet(hexlify(key)).address.toLowerCase();
    const first = addressOfKey(key);
    first.bytes.fill(0);
    const second = addressOfKey(key);
    expect(second.toString()).to.equal(expected);
    expect(second).to.not.equal(first);
  });
});
