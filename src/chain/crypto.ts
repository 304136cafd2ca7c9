/**
 * Native crypto for EthereumJS (`common.customCrypto`): secp256k1 for sender recovery (pure-JS
 * recovery costs ~2.6 ms per transaction, the `secp256k1` package's binary a small fraction of that)
 * and keccak-256 for every trie node, header, transaction, bloom and KECCAK256 opcode (see
 * src/utils/keccak.ts).
 */
import type { CustomCrypto } from "@ethereumjs/common";
import secp256k1 from "secp256k1";
import { keccak256 } from "../utils/keccak";

export function nativeCrypto(): CustomCrypto {
  return {
    keccak256,
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
