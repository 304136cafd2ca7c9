/**
 * The bank precompile at 0x…0804 (contracts/precompiles/IBank.sol), as cosmos/evm has it
 * (precompiles/bank): `balances(account)`, `totalSupply()` and `supplyOf(erc20)` over the coins
 * that have an ERC-20 token pair (src/cosmos/erc20/keeper.ts), sorted by denom: the native coin (the EVM
 * balance, 18 decimals) paired with its wrapped ERC-20 — WEVMOS's address, the one Evmos and evmd's
 * genesis register — so it reads as `{ contractAddress: 0xD494…d517, amount }`, and the IBC
 * vouchers registered as pairs. Flat gas per call as cosmos/evm
 * prices them (2,851 for balances, 2,477 for the supplies); every method is a query.
 */
import type { ExecResult, PrecompileInput } from "@ethereumjs/evm";
import { EVMError } from "@ethereumjs/evm";
import { Interface } from "ethers/abi";
import { getAddress } from "ethers/address";
import { getBytes, hexlify } from "ethers/utils";
import { stateEnv } from "../common/module-env";
import { revertData } from "../common/module-precompile";
import { decodeAll } from "../../chain/base/precompile";
import type { ModuleEnv } from "../common/module-env";
import type { BankKeepers } from "./expected-keepers";
import type { Coin } from "./keeper";

/** The native coin's ERC-20 pair: WEVMOS (Evmos mainnet; evmd's genesis registers the same address). */
export const NATIVE_ERC20 = "0xD4949664cD82660AaE99bEdc034a0deA8A0bd517" as const;

export const BANK_ABI = new Interface([
  "function balances(address account) view returns (tuple(address contractAddress, uint256 amount)[] balances)",
  "function totalSupply() view returns (tuple(address contractAddress, uint256 amount)[] totalSupply)",
  "function supplyOf(address erc20Address) view returns (uint256 totalSupply)",
]);

const GAS: Readonly<Record<string, bigint>> = { balances: 2_851n, totalSupply: 2_477n, supplyOf: 2_477n };

export function createBankPrecompile(denom: string, nativeErc20: string, keepers: (env: ModuleEnv) => BankKeepers): (input: PrecompileInput) => Promise<ExecResult> {
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
      args = decodeAll(BANK_ABI, fn, data);
    } catch {
      return revert(`abi: cannot unmarshal the arguments of ${fn.name}`);
    }
    // the bank and x/erc20 records as this execution's state holds them (the flat price covers the reads)
    const env = stateEnv(input._EVM.stateManager, { number: 0n, timestamp: 0n }, denom);
    const { bank, erc20: keeper } = keepers(env);
    // a coin's ERC-20: its token pair's (the native coin's is WEVMOS's address, registered or not)
    const erc20Of = async (d: string): Promise<string | undefined> => (d === denom ? pair : (await keeper.pairOfDenom(d))?.erc20);
    const paired = async (coins: Coin[]): Promise<Array<[string, bigint]>> => {
      const out: Array<[string, bigint]> = [];
      for (const c of coins) {
        const erc20 = await erc20Of(c.denom);
        if (erc20 !== undefined && c.amount > 0n) out.push([erc20, c.amount]);
      }
      return out;
    };
    let out: unknown[];
    if (fn.name === "balances") {
      out = [await paired(await bank.balances(getAddress(args[0] as string)))];
    } else if (fn.name === "totalSupply") {
      const denoms = [denom, ...(await keeper.pairs()).map((p) => p.denom).filter((d) => d !== denom)].sort();
      out = [await paired(await Promise.all(denoms.map(async (d) => ({ denom: d, amount: await bank.supplyOf(d) }))))];
    } else {
      // an ERC-20 without a token pair has no bank supply: 0, as cosmos/evm answers
      const erc20 = getAddress(args[0] as string);
      const d = erc20 === pair ? denom : (await keeper.pair(erc20))?.denom;
      out = [d === undefined ? 0n : await bank.supplyOf(d)];
    }
    return { returnValue: getBytes(BANK_ABI.encodeFunctionResult(fn, out)), executionGasUsed: gas };
  };
}
