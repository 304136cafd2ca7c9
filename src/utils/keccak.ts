/** Keccak-256 (the EVM's hash) as bytes, through ethers (CommonJS-loadable, unlike @noble/hashes 2). */
import { getBytes, keccak256 as keccakHex } from "ethers";

export function keccak256(data: Uint8Array): Uint8Array {
  return getBytes(keccakHex(data));
}
