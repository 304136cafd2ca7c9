/**
 * Web3 Secret Storage v3 key files (the format of geth's keystore): scrypt (or PBKDF2 when reading),
 * AES-128-CTR and a Keccak-256 MAC. Encryption is ethers' JSON-wallet code; decryption uses ethers'
 * KDFs with a constant-time MAC check of our own. This file fixes the parameters, validates foreign
 * files before they are used, and writes the JSON in geth's layout.
 */
import { createDecipheriv, timingSafeEqual } from "node:crypto";
import { computeAddress } from "ethers/transaction";
import { hexlify } from "ethers/utils";
import { keccak256, pbkdf2, scrypt } from "ethers/crypto";
import { KeyFileError, WrongPassphraseError } from "./errors";

export interface ScryptParams {
  N: number;
  r: number;
  p: number;
}

/** geth's StandardScryptN/P: about 256 MiB of memory and one to two seconds of CPU per unlock. */
export const STANDARD_SCRYPT: ScryptParams = { N: 1 << 18, r: 8, p: 1 };
/** geth's LightScryptN/P (`--lightkdf`): about 4 MiB; for tests and throwaway keys. */
export const LIGHT_SCRYPT: ScryptParams = { N: 1 << 12, r: 8, p: 6 };

/** Beyond these a file would make each unlock allocate gigabytes or run for minutes: refused at load. */
const MAX_SCRYPT_MEMORY = 1 << 30; // bytes: 128 · N · r
const MAX_PBKDF2_ROUNDS = 10_000_000;

export function scryptParams(setting: ScryptParams | "standard" | "light" | undefined): ScryptParams {
  if (setting === undefined || setting === "standard") return STANDARD_SCRYPT;
  if (setting === "light") return LIGHT_SCRYPT;
  const { N, r, p } = setting;
  if (!Number.isSafeInteger(N) || N < 2 || (N & (N - 1)) !== 0) throw new Error(`invalid scrypt N ${N}: must be a power of two above 1`);
  if (!Number.isSafeInteger(r) || r < 1 || !Number.isSafeInteger(p) || p < 1) throw new Error(`invalid scrypt r ${r} / p ${p}: must be positive integers`);
  if (128 * N * r > MAX_SCRYPT_MEMORY) throw new Error(`scrypt N ${N} with r ${r} needs more than 1 GiB of memory`);
  return setting;
}

/** geth's key file name: `UTC--<ISO 8601 time with '-' for ':' and nanoseconds>--<address without 0x>`. */
export function keyFileName(time: Date, address: string): string {
  const z = (n: number, w = 2) => String(n).padStart(w, "0");
  const t = time;
  const stamp = `${t.getUTCFullYear()}-${z(t.getUTCMonth() + 1)}-${z(t.getUTCDate())}T${z(t.getUTCHours())}-${z(t.getUTCMinutes())}-${z(t.getUTCSeconds())}.${z(t.getUTCMilliseconds() * 1_000_000, 9)}Z`;
  return `UTC--${stamp}--${address.toLowerCase().replace(/^0x/, "")}`;
}

/** geth hashes the passphrase's bytes as given; ethers would NFKC-normalise a string first. */
function passphraseBytes(passphrase: string): Uint8Array {
  return new Uint8Array(Buffer.from(passphrase, "utf8"));
}

/** Encrypts a 32-byte private key; answers the key file's JSON text in geth's field layout. */
export async function encryptKey(privateKey: Uint8Array, passphrase: string, params: ScryptParams): Promise<string> {
  // ethers' wallet code (its largest part) loads when a key is first written, not with every chain
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a deferred CommonJS load
  const { encryptKeystoreJson } = require("ethers/wallet") as typeof import("ethers/wallet");
  const hexKey = hexlify(privateKey);
  const json = await encryptKeystoreJson({ address: computeAddress(hexKey), privateKey: hexKey }, passphraseBytes(passphrase), { scrypt: params });
  const parsed = JSON.parse(json) as { address: string; id: string; version: number; Crypto: Record<string, unknown> };
  return JSON.stringify({ address: parsed.address, crypto: parsed.Crypto, id: parsed.id, version: 3 });
}

/**
 * Decrypts a key file; a wrong passphrase throws WrongPassphraseError, a broken file KeyFileError.
 * The KDFs are ethers'; the MAC check is ours, with timingSafeEqual (ethers compares hex strings),
 * and AES-128-CTR is Node's.
 */
export async function decryptKey(json: string, passphrase: string): Promise<Uint8Array> {
  const { address } = readKeyFileHeader(json);
  const crypto = obj(field(obj(JSON.parse(json), "the file"), "crypto"), "crypto");
  const params = obj(field(crypto, "kdfparams"), "crypto.kdfparams");
  const salt = Buffer.from(hexField(params, "salt", "crypto.kdfparams.salt"), "hex");
  const password = passphraseBytes(passphrase);
  const derived = Buffer.from(
    (String(field(crypto, "kdf")).toLowerCase() === "scrypt"
      ? await scrypt(password, salt, intField(params, "n", "n"), intField(params, "r", "r"), intField(params, "p", "p"), 32)
      : pbkdf2(password, salt, intField(params, "c", "c"), 32, field(params, "prf") === "hmac-sha512" ? "sha512" : "sha256")
    ).slice(2),
    "hex",
  );
  const ciphertext = Buffer.from(hexField(crypto, "ciphertext", "crypto.ciphertext"), "hex");
  const mac = Buffer.from(keccak256(Buffer.concat([derived.subarray(16, 32), ciphertext])).slice(2), "hex");
  if (!timingSafeEqual(mac, Buffer.from(hexField(crypto, "mac", "crypto.mac", 32), "hex"))) throw new WrongPassphraseError();
  const iv = Buffer.from(hexField(obj(field(crypto, "cipherparams"), "crypto.cipherparams"), "iv", "crypto.cipherparams.iv", 16), "hex");
  const decipher = createDecipheriv("aes-128-ctr", derived.subarray(0, 16), iv);
  const key = new Uint8Array(Buffer.concat([decipher.update(ciphertext), decipher.final()]));
  derived.fill(0);
  if (key.length !== 32) throw new KeyFileError(`the decrypted key has ${key.length} bytes, want 32`);
  if (computeAddress(hexlify(key)).toLowerCase() !== address) throw new KeyFileError("the file's address does not match its key");
  return key;
}

/** Case-insensitive field lookup, as Go's JSON decoder does (`Crypto` in old geth and ethers files). */
function field(o: Record<string, unknown>, name: string): unknown {
  for (const [k, v] of Object.entries(o)) if (k.toLowerCase() === name) return v;
  return undefined;
}

function obj(v: unknown, what: string): Record<string, unknown> {
  if (v === null || typeof v !== "object" || Array.isArray(v)) throw new KeyFileError(`${what} is missing or not an object`);
  return v as Record<string, unknown>;
}

function hexField(o: Record<string, unknown>, name: string, what: string, bytes?: number): string {
  const v = field(o, name);
  if (typeof v !== "string" || !/^(0x)?([0-9a-fA-F]{2})+$/.test(v)) throw new KeyFileError(`${what} is missing or not hex`);
  const body = v.replace(/^0x/, "");
  if (bytes !== undefined && body.length !== bytes * 2) throw new KeyFileError(`${what} has ${body.length / 2} bytes, want ${bytes}`);
  return body;
}

function intField(o: Record<string, unknown>, name: string, what: string): number {
  const v = field(o, name);
  const n = typeof v === "string" && /^\d+$/.test(v) ? Number(v) : v;
  if (typeof n !== "number" || !Number.isSafeInteger(n) || n < 1) throw new KeyFileError(`${what} is missing or not a positive integer`);
  return n;
}

/**
 * Checks a key file without decrypting it and answers its address (0x, lower case). Refuses what is
 * not a v3 file this node can open: other versions, ciphers or KDFs, missing fields, no address, or
 * KDF parameters too costly to run.
 */
export function readKeyFileHeader(text: string): { address: string } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new KeyFileError("not JSON");
  }
  const o = obj(parsed, "the file");
  const version = field(o, "version");
  if (version !== 3 && version !== "3") throw new KeyFileError(`not a Web3 Secret Storage v3 key file (version ${JSON.stringify(version ?? null)})`);
  const address = field(o, "address");
  if (typeof address !== "string" || !/^(0x)?[0-9a-fA-F]{40}$/.test(address)) throw new KeyFileError("no address field (a 20-byte hex address)");
  const crypto = obj(field(o, "crypto"), "crypto");
  const cipher = field(crypto, "cipher");
  if (cipher !== "aes-128-ctr") throw new KeyFileError(`unsupported cipher ${JSON.stringify(cipher ?? null)} (want aes-128-ctr)`);
  hexField(crypto, "ciphertext", "crypto.ciphertext");
  hexField(crypto, "mac", "crypto.mac", 32);
  hexField(obj(field(crypto, "cipherparams"), "crypto.cipherparams"), "iv", "crypto.cipherparams.iv", 16);
  const kdf = String(field(crypto, "kdf") ?? "").toLowerCase();
  const params = obj(field(crypto, "kdfparams"), "crypto.kdfparams");
  hexField(params, "salt", "crypto.kdfparams.salt");
  const dklen = intField(params, "dklen", "crypto.kdfparams.dklen");
  if (dklen !== 32) throw new KeyFileError(`crypto.kdfparams.dklen ${dklen} is not 32`);
  if (kdf === "scrypt") {
    const N = intField(params, "n", "crypto.kdfparams.n");
    const r = intField(params, "r", "crypto.kdfparams.r");
    intField(params, "p", "crypto.kdfparams.p");
    if ((N & (N - 1)) !== 0 || N < 2) throw new KeyFileError(`crypto.kdfparams.n ${N} is not a power of two`);
    if (128 * N * r > MAX_SCRYPT_MEMORY) throw new KeyFileError(`scrypt parameters n=${N} r=${r} would need more than 1 GiB per unlock`);
  } else if (kdf === "pbkdf2") {
    const prf = field(params, "prf");
    if (prf !== "hmac-sha256" && prf !== "hmac-sha512") throw new KeyFileError(`unsupported PBKDF2 prf ${JSON.stringify(prf ?? null)} (want hmac-sha256)`);
    if (intField(params, "c", "crypto.kdfparams.c") > MAX_PBKDF2_ROUNDS) throw new KeyFileError(`PBKDF2 with more than ${MAX_PBKDF2_ROUNDS} rounds`);
  } else {
    throw new KeyFileError(`unsupported kdf ${JSON.stringify(field(crypto, "kdf") ?? null)} (want scrypt or pbkdf2)`);
  }
  return { address: `0x${address.toLowerCase().replace(/^0x/, "")}` };
}
