/**
 * Keccak-256 (the EVM's hash) as bytes. The chain hashes every trie node, header, transaction and
 * storage key with it (`nativeCrypto` in src/chain/base/crypto.ts): @noble/hashes in pure JS was the
 * largest single cost of producing a block (CPU profile of `npx hardhat node` under ERC20
 * transfers).
 *
 * The `keccak` package's native sponge (a prebuilt binary inside the package), loaded the way the
 * package's own `bindings.js` loads it. Its public API wraps each hash in a stream object whose
 * construction cost more than the hash; one sponge, re-initialised per hash, is 2–5× faster than
 * @noble/hashes here. Where the binary cannot load, ethers' keccak (pure JS) is used.
 */
import path from "node:path";
import nodeGypBuild from "node-gyp-build";
import { keccak256 as ethersKeccak } from "ethers/crypto";

interface Sponge {
  initialize(rate: number, capacity: number): void;
  absorb(data: Buffer): void;
  absorbLastFewBits(bits: number): void;
  squeeze(length: number): Buffer;
}

function loadSponge(): Sponge | undefined {
  try {
    const Addon = nodeGypBuild(path.dirname(require.resolve("keccak/package.json"))) as new () => Sponge;
    return typeof Addon === "function" ? new Addon() : undefined;
  } catch {
    return undefined;
  }
}

const sponge = loadSponge();

export function keccak256(data: Uint8Array): Uint8Array {
  if (sponge === undefined) return Buffer.from(ethersKeccak(data).slice(2), "hex");
  // keccak-256: rate 1088 bits, capacity 512, the original Keccak padding (0x01, not SHA-3's 0x06)
  sponge.initialize(1088, 512);
  sponge.absorb(Buffer.isBuffer(data) ? data : Buffer.from(data.buffer, data.byteOffset, data.byteLength));
  sponge.absorbLastFewBits(0x01);
  const out = sponge.squeeze(32);
  // a plain Uint8Array over the binding's own 32-byte buffer (Buffer's slice() would share, not copy)
  return new Uint8Array(out.buffer, out.byteOffset, 32);
}

/** Whether the native sponge loaded (else the pure-JS fallback runs). */
export const nativeKeccak = sponge !== undefined;
