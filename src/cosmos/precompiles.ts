/**
 * The Cosmos precompiles the local chain hosts (docs/cosmos-precompiles.md): P-256 at 0x…0100 and
 * bech32 at 0x…0400 under both profiles; staking (0x…0800), distribution (0x…0801), ICS20 (0x…0802),
 * bank (0x…0804), gov (0x…0805), slashing (0x…0806) and the ERC-20s of x/erc20's token pairs (at their
 * own addresses, joining the EVM as they are registered) with their modules, on by default under
 * cosmos-evm and when asked for under evmos. Prefixes and denom are the profile's: `evmos` / `aevmos`
 * under evmos, `cosmos` / `atest` under cosmos-evm (evmd's).
 */
import type { CustomPrecompile, PrecompileFunc, PrecompileInput } from "@ethereumjs/evm";
import { createAddressFromString } from "@ethereumjs/util";
import type { EpochsProfile } from "../epochs/types";
import { keepers } from "./app";
import { type CosmosModulesSettings, type CosmosPrecompilesOptions, chainBech32Prefix } from "./app-settings";
import { BECH32_PRECOMPILE, createBech32Precompile } from "./bech32/precompile";
import { bech32Prefixes } from "./common/address-codec";
import { P256_PRECOMPILE, createP256Precompile } from "./p256/precompile";
import { BANK_PRECOMPILE } from "./common/accounts";
import { createBankPrecompile } from "./bank/precompile";
import type { TokenPair } from "./erc20/keeper";
import { createErc20Precompile } from "./erc20/precompile";
import { ICS20_PRECOMPILE } from "./ics20/keeper";
import { ICS20_ABI, ICS20_TRANSACTIONS, ics20Handlers } from "./ics20/precompile";
import { MsgRouter } from "./msg-router";
import { GOV_PRECOMPILE } from "./gov/keeper";
import { GOV_ABI, GOV_TRANSACTIONS, govHandlers } from "./gov/precompile";
import { SLASHING_ABI, SLASHING_TRANSACTIONS, slashingHandlers } from "./slashing/precompile";
import { SLASHING_PRECOMPILE } from "./slashing/keeper";
import { DISTRIBUTION_PRECOMPILE } from "./distribution/keeper";
import { DISTRIBUTION_ABI, DISTRIBUTION_TRANSACTIONS, distributionHandlers } from "./distribution/precompile";
import { type MethodCall, type ModulePrecompileDeps, createModulePrecompile } from "./common/module-precompile";
import { STAKING_PRECOMPILE } from "./staking/types";
import { STAKING_ABI, STAKING_TRANSACTIONS, ValidatorCodec, stakingHandlers } from "./staking/precompile";

/** The ERC-20 precompile of `pair` (WERC20's for the native coin's pair). */
export function erc20PairPrecompile(settings: CosmosModulesSettings, pair: TokenPair, deps: Omit<ModulePrecompileDeps, "denom"> & { value(input: PrecompileInput): bigint }): PrecompileFunc {
  const wrapped = settings.erc20 !== false && pair.erc20.toLowerCase() === settings.erc20.nativeErc20.toLowerCase();
  return createErc20Precompile(pair.erc20, wrapped, { ...deps, denom: settings.denom }, keepers);
}

/** The precompiles: `deps` tells the module precompiles about the execution they run in. */
export function cosmosPrecompiles(opts: CosmosPrecompilesOptions, profile: EpochsProfile, settings: CosmosModulesSettings | undefined, deps: Omit<ModulePrecompileDeps, "denom">): CustomPrecompile[] {
  const out: CustomPrecompile[] = [];
  const prefixes = bech32Prefixes(chainBech32Prefix(opts, profile));
  if (opts.p256 !== false) out.push({ address: createAddressFromString(P256_PRECOMPILE), function: createP256Precompile() });
  if (opts.bech32 !== false) out.push({ address: createAddressFromString(BECH32_PRECOMPILE), function: createBech32Precompile(prefixes) });
  if (settings === undefined) return out;
  const moduleDeps = { ...deps, denom: settings.denom };
  const codec = new ValidatorCodec(prefixes);
  const callKeepers = (call: MethodCall) => keepers(call.env);
  out.push({
    address: createAddressFromString(STAKING_PRECOMPILE),
    function: createModulePrecompile(STAKING_PRECOMPILE, STAKING_ABI, stakingHandlers(codec, callKeepers), STAKING_TRANSACTIONS, moduleDeps),
  });
  if (settings.bank) out.push({ address: createAddressFromString(BANK_PRECOMPILE), function: createBankPrecompile(settings.denom, settings.nativeErc20, keepers) });
  if (settings.ics20 !== false)
    out.push({ address: createAddressFromString(ICS20_PRECOMPILE), function: createModulePrecompile(ICS20_PRECOMPILE, ICS20_ABI, ics20Handlers(keepers), ICS20_TRANSACTIONS, moduleDeps) });
  if (settings.gov)
    out.push({
      address: createAddressFromString(GOV_PRECOMPILE),
      function: createModulePrecompile(GOV_PRECOMPILE, GOV_ABI, govHandlers(prefixes, keepers, new MsgRouter(prefixes, keepers)), GOV_TRANSACTIONS, moduleDeps),
    });
  if (settings.slashing) {
    out.push({
      address: createAddressFromString(SLASHING_PRECOMPILE),
      function: createModulePrecompile(SLASHING_PRECOMPILE, SLASHING_ABI, slashingHandlers(keepers), SLASHING_TRANSACTIONS, moduleDeps),
    });
  }
  if (settings.distribution !== false) {
    out.push({
      address: createAddressFromString(DISTRIBUTION_PRECOMPILE),
      function: createModulePrecompile(DISTRIBUTION_PRECOMPILE, DISTRIBUTION_ABI, distributionHandlers(prefixes, codec, callKeepers), DISTRIBUTION_TRANSACTIONS, moduleDeps),
    });
  }
  return out;
}
