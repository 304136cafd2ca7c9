import { expect } from "chai";
import { HDNodeWallet, Mnemonic, hexlify } from "ethers";
import { deriveHdKeys } from "../../src/chain/base/hd-keys";

const MNEMONIC = "test test test test test test test test test test test junk";

/** ethers' (pure JS) derivation, the reference. */
function reference(mnemonic: string, path: string, count: number, initialIndex: number, passphrase: string): string[] {
  const root = HDNodeWallet.fromMnemonic(Mnemonic.fromPhrase(mnemonic, passphrase), path);
  return Array.from({ length: count }, (_, i) => root.deriveChild(initialIndex + i).privateKey);
}

describe("chain: HD keys with native crypto", () => {
  it("derives Hardhat's default accounts", () => {
    const keys = deriveHdKeys(MNEMONIC, "m/44'/60'/0'/0", 20).map((k) => hexlify(k));
    expect(keys[0]).to.equal("0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80");
    expect(keys).to.deep.equal(reference(MNEMONIC, "m/44'/60'/0'/0", 20, 0, ""));
  });

  it("matches ethers for another path, initial index and passphrase", () => {
    const other = "legal winner thank year wave sausage worth useful legal winner thank yellow";
    expect(deriveHdKeys(other, "m/44'/60'/1'/7", 5, 3, "pässphrase").map((k) => hexlify(k))).to.deep.equal(reference(other, "m/44'/60'/1'/7", 5, 3, "pässphrase"));
    expect(() => deriveHdKeys(MNEMONIC, "44'/60'", 1)).to.throw("invalid HD path \"44'/60'\"");
  });
});
