/**
 * Native secp256k1 for sender recovery: pure-JS recovery costs ~2.6 ms per transaction
 * (refs/stack-notes.md), the `secp256k1` package's binary a small fraction of that.
 */
import type { CustomCrypto } from "@ethereumjs/common";
import { Address } from "@ethereumjs/util";
import secp256k1 from "secp256k1";
import { keccak256 } from "../utils/keccak";

/**
 * The address of a private key (EthereumJS's createAddressFromPrivateKey, natively): in pure JS the
 * 20 dev accounts' addresses cost ~0.8 s of every chain start (CPU profile of bench/tests).
 */
export function addressOfKey(privateKey: Uint8Array): Address {
  const pub = secp256k1.publicKeyCreate(privateKey, false); // 0x04 ‖ x ‖ y
  return new Address(keccak256(pub.subarray(1)).subarray(12));
}

export function nativeCrypto(): CustomCrypto {
  return {
    ecrecover(msgHash: Uint8Array, v: bigint, r: Uint8Array, s: Uint8Array, chainId?: bigint): Uint8Array {
      // EthereumJS's rule: typed transactions pass yParity (0/1), legacy ones v (27/28 or EIP-155).
      const recovery = v === 0n || v === 1n ? v : chainId === undefined ? v - 27n : v - (2n * chainId + 35n);
      if (recovery !== 0n && recovery !== 1n) throw new Error("Invalid signature v value");
      const sig = new Uint8Array(64);
      sig.set(r.subarray(Math.max(0, r.length - 32)), 32 - Math.min(32, r.length));
      sig.set(s.subarray(Math.max(0, s.length - 32)), 64 - Math.min(32, s.length));
      const pub = secp256k1.ecdsaRecover(sig, Number(recovery), msgHash, false);
      return pub.subarray(1);
    },
  };
}
