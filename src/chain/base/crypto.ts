/**
 * Native crypto for EthereumJS (`common.customCrypto`): secp256k1 for sender recovery (pure-JS
 * recovery costs ~2.6 ms per transaction, the `secp256k1` package's binary a small fraction of that)
 * and for signing the node's own transactions (eth_sendTransaction with a dev key: ~6 ms in pure JS),
 * and keccak-256 for every trie node, header, transaction, bloom and KECCAK256 opcode (see
 * src/utils/keccak.ts).
 */
import { randomBytes } from "node:crypto";
import type { CustomCrypto } from "@ethereumjs/common";
import { Address } from "@ethereumjs/util";
import secp256k1 from "secp256k1";
import { keccak256 } from "../../utils/keccak";

export function nativeCrypto(): CustomCrypto {
  return {
    keccak256,
    ecsign: ecsign as unknown as CustomCrypto["ecsign"],
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

/**
 * `ecsign` as EthereumJS calls it (@noble/curves' `secp256k1.sign` with `format: "recovered"`):
 * the 65 bytes recovery id, r, s. `extraEntropy` keeps its meaning: `true` hedges the nonce with
 * fresh random bytes, bytes are mixed in as given (libsecp256k1's RFC 6979 nonce with extra data).
 */
function ecsign(msgHash: Uint8Array, privateKey: Uint8Array, opts: { extraEntropy?: boolean | Uint8Array; format?: string; prehash?: boolean } = {}): Uint8Array {
  if (opts.format !== "recovered" || opts.prehash !== false) throw new Error(`ecsign: only prehashed "recovered" signatures are supported`);
  const data = opts.extraEntropy === true ? randomBytes(32) : opts.extraEntropy instanceof Uint8Array ? opts.extraEntropy : undefined;
  const { signature, recid } = secp256k1.ecdsaSign(msgHash, privateKey, data !== undefined ? { data } : undefined);
  const out = new Uint8Array(65);
  out[0] = recid;
  out.set(signature, 1);
  return out;
}

/**
 * The address of a private key, with the native curve: EthereumJS's `createAddressFromPrivateKey`
 * (pure JS) took ~0.9 s of a node's start for its 20 dev accounts, most of it building the curve's
 * precomputed tables.
 */
export function addressOfKey(privateKey: Uint8Array): Address {
  const derived = derivedOf(privateKey);
  // hashed once per key (every chain a process builds names its dev accounts twice); a fresh Address each time, callers own it
  derived.address ??= addressOfPublicKey(derived.publicKey).bytes;
  return new Address(derived.address.slice());
}

/** The address of a 64-byte public key (uncompressed, without its 0x04 prefix), hashed with the native Keccak. */
export function addressOfPublicKey(publicKey: Uint8Array): Address {
  return new Address(keccak256(publicKey).slice(12));
}

/** Public keys (and addresses, once asked) of the keys the node signs with (dev accounts, a few key-store accounts), by key. */
const derivedKeys = new Map<string, { publicKey: Uint8Array; address?: Uint8Array }>();

function derivedOf(privateKey: Uint8Array): { publicKey: Uint8Array; address?: Uint8Array } {
  const k = Buffer.from(privateKey).toString("hex");
  let derived = derivedKeys.get(k);
  if (derived === undefined) {
    derived = { publicKey: secp256k1.publicKeyCreate(privateKey, false).subarray(1) };
    if (derivedKeys.size >= 1024) derivedKeys.clear();
    derivedKeys.set(k, derived);
  }
  return derived;
}

/** The 64-byte public key of a private key (uncompressed, without its 0x04 prefix), computed once per key. */
export function publicKeyOf(privateKey: Uint8Array): Uint8Array {
  return derivedOf(privateKey).publicKey;
}
