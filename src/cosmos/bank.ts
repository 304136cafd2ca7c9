/**
 * The bank precompile at 0x…0804 (contracts/precompiles/IBank.sol), as cosmos/evm has it
 * (precompiles/bank): `balances(account)`, `totalSupply()` and `supplyOf(erc20)` over the coins
 * that have an ERC-20 token pair. Here that is the native coin (the EVM balance, 18 decimals),
 * paired with its wrapped ERC-20 — WEVMOS's address, the one Evmos and evmd's genesis register —
 * so a coin reads as `{ contractAddress: 0xD494…d517, amount }`. Flat gas per call as cosmos/evm
 * prices them (2,851 for balances, 2,477 for the supplies); every method is a query.
 */
import type { ExecResult, PrecompileInput } from "@ethereumjs/evm";
import { EVMError } from "@ethereumjs/evm";
import { createAddressFromString } from "@ethereumjs/util";
import { Interface, getAddress, getBytes, hexlify } from "ethers";
import { BANK_PRECOMPILE } from "./ledger";
import { StorageRecords } from "../chain/records";
import { revertData } from "./module-precompile";

/** The native coin's ERC-20 pair: WEVMOS (Evmos mainnet; evmd's genesis registers the same address). */
export const NATIVE_ERC20 = "0xD4949664cD82660AaE99bEdc034a0deA8A0bd517" as const;

export const BANK_ABI = new Interface([
  "function balances(address account) view returns (tuple(address contractAddress, uint256 amount)[] balances)",
  "function totalSupply() view returns (tuple(address contractAddress, uint256 amount)[] totalSupply)",
  "function supplyOf(address erc20Address) view returns (uint256 totalSupply)",
]);

const GAS: Readonly<Record<string, bigint>> = { balances: 2_851n, totalSupply: 2_477n, supplyOf: 2_477n };

export function createBankPrecompile(nativeErc20: string = NATIVE_ERC20): (input: PrecompileInput) => Promise<ExecResult> {
  const pair = getAddress(nativeErc20);
  return async (input) => {
    const { data, gasLimit } = input;
    const revert = (reason: string): ExecResult => ({ returnValue: revertData(reason), executionGasUsed: 0n, exceptionError: new EVMError(EVMError.errorMessages.REVERT) });
    const selector = data.length >= 4 ? hexlify(data.subarray(0, 4)) : "0x";
    const fn = data.length >= 4 ? BANK_ABI.getFunction(selector) : null;
    if (fn === null) return revert(`no method with id: ${selector}`);
    const gas = GAS[fn.name];
    if (gasLimit < gas) return { returnValue: new Uint8Array(), executionGasUsed: gasLimit, exceptionError: new EVMError(EVMError.errorMessages.OUT_OF_GAS) };
    let args;
    try {
      args = BANK_ABI.decodeFunctionData(fn, data);
    } catch {
      return revert(`abi: cannot unmarshal the arguments of ${fn.name}`);
    }
    const sm = input._EVM.stateManager;
    const bank = createAddressFromString(BANK_PRECOMPILE);
    const supply = async () => (await new StorageRecords({ get: (k) => sm.getStorage(bank, k), put: (k, v) => sm.putStorage(bank, k, v) }).get<bigint>("supply")) ?? 0n;
    let out: unknown[];
    if (fn.name === "balances") {
      const balance = (await sm.getAccount(createAddressFromString(args[0] as string)))?.balance ?? 0n;
      out = [balance > 0n ? [[pair, balance]] : []];
    } else if (fn.name === "totalSupply") {
      const s = await supply();
      out = [s > 0n ? [[pair, s]] : []];
    } else {
      // an ERC-20 without a token pair has no bank supply: 0, as cosmos/evm answers
      out = [getAddress(args[0] as string) === pair ? await supply() : 0n];
    }
    return { returnValue: getBytes(BANK_ABI.encodeFunctionResult(fn, out)), executionGasUsed: gas };
  };
}
