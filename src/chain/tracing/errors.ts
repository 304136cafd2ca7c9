/** geth's texts for EVM failures and opcode names, from EthereumJS's. */
import type { OpStep } from "./types";

const ERRORS: Record<string, string> = {
  "out of gas": "out of gas",
  "code store out of gas": "contract creation code storage out of gas",
  "code size to deposit exceeds maximum code size": "max code size exceeded",
  "stack overflow": "stack limit reached 1024 (1023)",
  "invalid JUMP": "invalid jump destination",
  revert: "execution reverted",
  "static state change": "write protection",
  "create collision": "contract address collision",
  "insufficient balance": "insufficient balance for transfer",
  "invalid bytecode deployed": "invalid code: must not begin with 0xef",
  "initcode exceeds max initcode size": "max initcode size exceeded",
  "value out of range": "return data out of bounds",
  "value overflow": "gas uint64 overflow",
};

/** Stack items each opcode takes (for geth's "stack underflow (have <=> want)"). */
function stackInputs(op: number): number {
  if (op >= 0x60 && op <= 0x7f) return 0;
  if (op >= 0x80 && op <= 0x8f) return op - 0x7f;
  if (op >= 0x90 && op <= 0x9f) return op - 0x8e;
  if (op >= 0xa0 && op <= 0xa4) return op - 0xa0 + 2;
  const table: Record<number, number> = {
    0x01: 2,
    0x02: 2,
    0x03: 2,
    0x04: 2,
    0x05: 2,
    0x06: 2,
    0x07: 2,
    0x08: 3,
    0x09: 3,
    0x0a: 2,
    0x0b: 2,
    0x10: 2,
    0x11: 2,
    0x12: 2,
    0x13: 2,
    0x14: 2,
    0x15: 1,
    0x16: 2,
    0x17: 2,
    0x18: 2,
    0x19: 1,
    0x1a: 2,
    0x1b: 2,
    0x1c: 2,
    0x1d: 2,
    0x1e: 1,
    0x20: 2,
    0x31: 1,
    0x35: 1,
    0x37: 3,
    0x39: 3,
    0x3b: 1,
    0x3c: 4,
    0x3e: 3,
    0x3f: 1,
    0x40: 1,
    0x49: 1,
    0x50: 1,
    0x51: 1,
    0x52: 2,
    0x53: 2,
    0x54: 1,
    0x55: 2,
    0x56: 1,
    0x57: 2,
    0x5c: 1,
    0x5d: 2,
    0x5e: 3,
    0xf0: 3,
    0xf1: 7,
    0xf2: 7,
    0xf3: 2,
    0xf4: 6,
    0xf5: 4,
    0xfa: 6,
    0xfd: 2,
    0xff: 1,
  };
  return table[op] ?? 0;
}

/** geth's error text for an EthereumJS EVM error; `step` is the frame's last opcode, when known. */
export function gethError(error: string, step?: OpStep): string {
  if (error === "stack underflow" && step !== undefined) return `stack underflow (${step.stack.length} <=> ${stackInputs(step.op)})`;
  if (error === "invalid opcode") return `invalid opcode: ${step === undefined ? "INVALID" : step.opName}`;
  return ERRORS[error] ?? error;
}

/** geth's name for an opcode (EthereumJS says PREVRANDAO where geth keeps DIFFICULTY; unknown bytes differ). */
export function opName(code: number, ejsName: string): string {
  if (code === 0x44) return "DIFFICULTY";
  if (code === 0xfe) return "INVALID";
  if (ejsName === "INVALID" || ejsName === "") return `opcode 0x${code.toString(16)} not defined`;
  return ejsName;
}
