/** geth's abi.UnpackRevert: the text of Error(string) and Panic(uint256) revert data. */
import { bytesToHex } from "@ethereumjs/util";

const PANICS: Record<number, string> = {
  0x00: "generic panic",
  0x01: "assert(false)",
  0x11: "arithmetic underflow or overflow",
  0x12: "division or modulo by zero",
  0x21: "enum overflow",
  0x22: "invalid encoded storage byte array accessed",
  0x31: "out-of-bounds array access; popping on an empty array",
  0x32: "out-of-bounds access of an array or bytesN",
  0x41: "out of memory",
  0x51: "uninitialized function",
};

export function decodeRevert(data: Uint8Array): string | undefined {
  if (data.length < 4) return undefined;
  const selector = bytesToHex(data.subarray(0, 4));
  const body = data.subarray(4);
  try {
    if (selector === "0x08c379a0") {
      const offset = Number(BigInt(bytesToHex(body.subarray(0, 32))));
      const len = Number(BigInt(bytesToHex(body.subarray(offset, offset + 32))));
      if (offset + 32 + len > body.length) return undefined;
      return new TextDecoder().decode(body.subarray(offset + 32, offset + 32 + len));
    }
    if (selector === "0x4e487b71" && body.length >= 32) {
      const code = BigInt(bytesToHex(body.subarray(0, 32)));
      return PANICS[Number(code)] ?? `unknown panic code: 0x${code.toString(16)}`;
    }
  } catch {
    return undefined;
  }
  return undefined;
}
