/**
 * The P-256 (secp256r1) signature verifier at 0x…0100, as Evmos v20 and cosmos/evm have it
 * (their precompiles/p256, RIP-7212): 160 bytes in (hash, r, s, x, y), 32 bytes `1` out when the
 * signature is valid, nothing out otherwise (bad length, out-of-range values, a point off the
 * curve, a wrong signature); 3,450 gas whatever the input. EIP-7951, which Osaka brings, checks the
 * same things and charges 6,900: the checks are EthereumJS's EIP-7951 precompile (reached through
 * its public `getActivePrecompiles`), the gas is the chains'.
 */
import { Common, Hardfork, Mainnet } from "@ethereumjs/common";
import { EVMError, type ExecResult, type PrecompileFunc, type PrecompileInput, getActivePrecompiles } from "@ethereumjs/evm";

export const P256_PRECOMPILE = "0x0000000000000000000000000000000000000100";

/** Evmos's and cosmos/evm's `VerifyGas`. */
const P256_VERIFY_GAS = 3450n;

/** What EIP-7951 charges: the EthereumJS verifier is given at least this, whatever the call had. */
const EIP7951_GAS = 6900n;

let verifier: PrecompileFunc | undefined;

/** EthereumJS's EIP-7951 verifier (the Osaka rules have it at 0x…0100). */
function eip7951(): PrecompileFunc {
  if (verifier !== undefined) return verifier;
  const found = getActivePrecompiles(new Common({ chain: Mainnet, hardfork: Hardfork.Osaka })).get(P256_PRECOMPILE.slice(2));
  if (found === undefined) throw new Error("EthereumJS has no P-256 verifier under Osaka");
  verifier = found;
  return found;
}

/** The precompile function (EthereumJS `PrecompileFunc`). */
export function createP256Precompile(): (input: PrecompileInput) => Promise<ExecResult> {
  const verify = eip7951();
  return async (input) => {
    if (input.gasLimit < P256_VERIFY_GAS) return { returnValue: new Uint8Array(), executionGasUsed: input.gasLimit, exceptionError: new EVMError(EVMError.errorMessages.OUT_OF_GAS) };
    const out = await verify({ ...input, gasLimit: input.gasLimit > EIP7951_GAS ? input.gasLimit : EIP7951_GAS });
    return { returnValue: out.returnValue, executionGasUsed: P256_VERIFY_GAS };
  };
}
