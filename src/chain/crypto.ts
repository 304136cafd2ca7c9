/**
 * Native secp256k1 for sender recovery and for signing the transactions the node sends for its
 * accounts (eth_sendTransaction): pure-JS recovery costs ~2.6 ms per transaction (refs/stack-notes.md),
 * pure-JS signing ~1 ms; the `secp256k1` package's binary a small fraction of either.
 */
import type { CustomCrypto } from "@ethereumjs/common";
import secp256k1 from "secp256k1";

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
    // EthereumJS wants the "recovered" form: recovery id, then r and s. The nonce is RFC 6979's
    // (deterministic), as EthereumJS's own default for transactions.
    ecsign(msgHash: Uint8Array, privateKey: Uint8Array): Uint8Array<ArrayBuffer> {
      const { signature, recid } = secp256k1.ecdsaSign(msgHash, privateKey);
      const out = new Uint8Array(65);
      out[0] = recid;
      out.set(signature, 1);
      return out;
    },
  };
}
