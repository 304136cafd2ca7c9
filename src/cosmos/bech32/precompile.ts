/**
 * The bech32 precompile at 0x…0400 (contracts/precompiles/IBech32.sol), as cosmos/evm and Evmos have
 * it: `hexToBech32(address, prefix)` and `bech32ToHex(string)`, a flat 6,000 gas per call.
 *
 * Failures are the chain's: its precompile returns a Go error, which the EVM turns into a failed call
 * that consumes the gas it was given and returns no data; eth_call answers with the error's text.
 * Here the same texts (cosmos/evm's precompiles/bech32/methods.go and the Cosmos SDK's address
 * checks) travel as the VM error of the call. docs/cosmos-precompiles.md lists them.
 */
import type { ExecResult, PrecompileInput } from "@ethereumjs/evm";
import { EVMError } from "@ethereumjs/evm";
import { Interface } from "ethers/abi";
import { getAddress } from "ethers/address";
import { getBytes, hexlify } from "ethers/utils";
import { decodeAll } from "../../chain/base/precompile";
import { AddressError, type Bech32Prefixes, fromBech32, toBech32 } from "../common/address-codec";

export const BECH32_PRECOMPILE = "0x0000000000000000000000000000000000000400" as const;
/** cosmos/evm's `bech32PrecompileBaseGas` (precompiles/types/defaults.go). */
const BECH32_GAS = 6_000n;

export const BECH32_ABI = new Interface(["function hexToBech32(address addr, string prefix) returns (string bech32Address)", "function bech32ToHex(string bech32Address) returns (address addr)"]);

function hexToBech32(addr: string, prefix: string, prefixes: Bech32Prefixes): string {
  if (prefix.trim() === "") {
    throw new AddressError(
      `invalid bech32 human readable prefix (HRP). Please provide a either an account, validator or consensus address prefix (eg: ${prefixes.account}, ${prefixes.validator}, ${prefixes.consensus})`,
    );
  }
  return toBech32(prefix, getBytes(addr));
}

function bech32ToHex(text: string): string {
  if (text === "") throw new AddressError("invalid bech32 address: ");
  const prefix = text.split("1", 1)[0];
  if (prefix === text) throw new AddressError(`invalid bech32 address: ${text}`);
  const bytes = fromBech32(text, prefix);
  // go-ethereum's BytesToAddress: the last 20 bytes, left-padded when shorter
  const padded = new Uint8Array(20);
  const tail = bytes.subarray(Math.max(0, bytes.length - 20));
  padded.set(tail, 20 - tail.length);
  return getAddress(hexlify(padded));
}

/** A failed call as the chain's EVM ends it: all the gas it was given, no return data, the error's text. */
function failure(gasLimit: bigint, message: string): ExecResult {
  // EthereumJS types an EVMError's text as one of its own messages; the chain's text is the precompile's
  return { returnValue: new Uint8Array(), executionGasUsed: gasLimit, exceptionError: new EVMError(message as never) };
}

/** The precompile function (EthereumJS `PrecompileFunc`) for a chain with `prefixes`. */
export function createBech32Precompile(prefixes: Bech32Prefixes): (input: PrecompileInput) => Promise<ExecResult> {
  return async ({ data, gasLimit }) => {
    if (gasLimit < BECH32_GAS) return { returnValue: new Uint8Array(), executionGasUsed: gasLimit, exceptionError: new EVMError(EVMError.errorMessages.OUT_OF_GAS) };
    // fewer than 4 bytes: the chain's precompile reverts without data
    if (data.length < 4) return { returnValue: new Uint8Array(), executionGasUsed: BECH32_GAS, exceptionError: new EVMError(EVMError.errorMessages.REVERT) };
    const selector = hexlify(data.subarray(0, 4));
    const fn = BECH32_ABI.getFunction(selector);
    if (fn === null) return failure(gasLimit, `no method with id: ${selector}`);
    let args;
    try {
      args = decodeAll(BECH32_ABI, fn, data);
    } catch {
      return failure(gasLimit, data.length === 4 ? "abi: attempting to unmarshal an empty string while arguments are expected" : `abi: cannot unmarshal the arguments of ${fn.name}`);
    }
    try {
      const out = fn.name === "hexToBech32" ? [hexToBech32(args[0] as string, args[1] as string, prefixes)] : [bech32ToHex(args[0] as string)];
      return { returnValue: getBytes(BECH32_ABI.encodeFunctionResult(fn, out)), executionGasUsed: BECH32_GAS };
    } catch (err) {
      if (err instanceof AddressError) return failure(gasLimit, err.message);
      throw err;
    }
  };
}
