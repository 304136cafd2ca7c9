/**
 * Hardhat's HD accounts (BIP-39 seed, BIP-32 derivation along `path/initialIndex+i`), derived with
 * Node's native PBKDF2/HMAC and the native `secp256k1` binding. The pure-JS derivation (ethers over
 * @noble/curves) costs ~0.4 s for the 20 default accounts, a tenth of `npx hardhat node`'s start;
 * this takes a few milliseconds. Checked against ethers' derivation in the tests.
 * The mnemonic is not checked against the BIP-39 word list (Hardhat's config validation is the place).
 */
import { createHmac, pbkdf2Sync } from "node:crypto";
import type * as Secp256k1 from "secp256k1";

const HARDENED = 0x80000000;

interface ExtendedKey {
  key: Uint8Array;
  chainCode: Uint8Array;
}

function hmac512(key: Uint8Array | string, data: Uint8Array): Buffer {
  return createHmac("sha512", key).update(data).digest();
}

function child(secp: typeof Secp256k1, parent: ExtendedKey, index: number): ExtendedKey {
  const data = Buffer.alloc(37);
  if (index >= HARDENED)
    data.set(parent.key, 1); // 0x00 || private key
  else data.set(secp.publicKeyCreate(parent.key, true), 0); // compressed public key
  data.writeUInt32BE(index, 33);
  const i = hmac512(parent.chainCode, data);
  // k_i = IL + k (mod n); the binding throws in the 1-in-2^127 case BIP-32 says to skip
  const key = secp.privateKeyTweakAdd(Uint8Array.from(parent.key), i.subarray(0, 32));
  return { key, chainCode: i.subarray(32) };
}

function parsePath(path: string): number[] {
  const parts = path.trim().split("/");
  if (parts[0] !== "m") throw new Error(`invalid HD path "${path}": expected m/…`);
  return parts.slice(1).map((p) => {
    const m = /^(\d+)('|h)?$/.exec(p);
    if (m === null || Number(m[1]) >= HARDENED) throw new Error(`invalid HD path "${path}" at "${p}"`);
    return Number(m[1]) + (m[2] !== undefined ? HARDENED : 0);
  });
}

/** The private keys of `path/initialIndex .. path/initialIndex+count-1` for a BIP-39 mnemonic. */
export function deriveHdKeys(mnemonic: string, path: string, count: number, initialIndex = 0, passphrase = ""): Uint8Array[] {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a native binding, loaded when a chain is built
  const secp = require("secp256k1") as typeof Secp256k1;
  const words = mnemonic.normalize("NFKD").trim().split(/\s+/).join(" ");
  const seed = pbkdf2Sync(words, `mnemonic${passphrase}`.normalize("NFKD"), 2048, 64, "sha512");
  const master = hmac512("Bitcoin seed", seed);
  let node: ExtendedKey = { key: master.subarray(0, 32), chainCode: master.subarray(32) };
  for (const index of parsePath(path)) node = child(secp, node, index);
  const keys: Uint8Array[] = [];
  for (let i = 0; i < count; i++) keys.push(Uint8Array.from(child(secp, node, initialIndex + i).key));
  return keys;
}
