import { expect } from "chai";
import { createAddressFromPrivateKey } from "@ethereumjs/util";
import { addressOfKey } from "../../../src/chain/crypto";
import { deriveHdKeys } from "../../../src/chain/hd-keys";

describe("chain: native crypto", () => {
  it("addressOfKey gives EthereumJS's address for each key", () => {
    const keys = deriveHdKeys("test test test test test test test test test test test junk", "m/44'/60'/0'/0", 5);
    keys.push(Uint8Array.from({ length: 32 }, (_, i) => i + 1));
    for (const k of keys) expect(addressOfKey(k).toString()).to.equal(createAddressFromPrivateKey(k).toString());
    // Hardhat's first default account
    expect(addressOfKey(keys[0]).toString()).to.equal("0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266");
  });
});
