/**
 * x/erc20 as a block module of the chain (docs/cosmos-precompiles.md, "Token pairs"):
 * - genesis: the native coin's pair (at WEVMOS's address unless the genesis names another, as
 *   local_node.sh names ERC-7528's) with the coin's bank metadata (Evmos's `aevmos`, evmd's `atest`
 *   "Test Token"), the pairs a genesis lists, and the coins the config lists — minted to their
 *   holders, with their metadata, an IBC voucher (`ibc/<hash>`) without a listed pair paired at its
 *   hash's address;
 * - each time the chain's state is opened or replaced, the ERC-20 precompiles of its pairs join the
 *   chain's EVM (`onPairs`: src/chain/engine/evm.ts), so a reopened home or a loaded dump has them;
 * - a loaded state's pair records must read (checkState).
 */
import { getBytes } from "ethers/utils";
import type { BlockModule, GenesisContext } from "../../chain/base/module";
import type { StateReader } from "../../chain/base/records";
import { validateDenom } from "../common/denom";
import type { DenomMetadata } from "./expected-keepers";
import { ERC20_MODULE_ACCOUNT, type Erc20Keeper, type TokenPair, ibcDenomAddress } from "./keeper";
import { denomFromPath, ibcDenom } from "../common/ibc-denom";
import type { Erc20Keepers, TransferKeeper } from "./expected-keepers";
import { type ModuleEnv } from "../common/module-env";
import { ModuleError } from "../common/errors";
import { INVALID_CODE, genesisEnv, readEnv } from "../common/module-env";

/** A coin at genesis (the config's `epochs.precompiles.erc20.coins`). */
export interface GenesisCoin {
  /** A bank denom, an IBC voucher `ibc/<hash>`, or a voucher by its path (`transfer/channel-0/uatom`). */
  denom: string;
  /** Bank metadata; without it the pair's name, symbol and decimals revert, as on the chain. */
  metadata?: DenomMetadata;
  /** Holders and amounts, minted at genesis. */
  balances?: Array<{ address: string; amount: bigint }>;
}

/** A coin's token pair at genesis (`app_state.erc20.token_pairs`): the coin's ERC-20 precompile at `erc20`. */
export interface GenesisPair {
  erc20: string;
  denom: string;
  enabled: boolean;
}

export interface Erc20Settings {
  /** The native coin's pair (WERC20). */
  nativeErc20: string;
  nativeMetadata: DenomMetadata;
  coins: GenesisCoin[];
  /** Pairs of other coins a genesis lists (a voucher without one is paired at its hash's address). */
  pairs: GenesisPair[];
  /** The chain has ICS20 (its module is made before this one): vouchers named by path get their traces recorded. */
  recordTraces: boolean;
}

const ERC20_MODULE = "erc20";

/**
 * Registers a voucher's pair at its address, with code there so callers see a contract. The voucher
 * is named by its denom (`ibc/<hash>`) or by its path (`transfer/channel-0/uatom`), whose trace is
 * then recorded in `traces` (the ICS20 module, when the chain has it) so transfers and the ERC-20's
 * name know it.
 */
export async function registerVoucher(keeper: Erc20Keeper, putCode: (address: string) => Promise<void>, denomOrPath: string, traces?: TransferKeeper): Promise<TokenPair> {
  let denom = denomOrPath;
  if (!denomOrPath.startsWith("ibc/") && denomOrPath.includes("/")) {
    const d = denomFromPath(denomOrPath);
    if (d.trace.length === 0 || d.base === "") throw new ModuleError(`invalid voucher path ${denomOrPath}: expected port/channel hops and a base denom, like transfer/channel-0/uatom`);
    denom = ibcDenom(d);
    await traces?.recordDenom(d);
  }
  const pair = await keeper.setToken(ibcDenomAddress(denom), denom);
  await putCode(pair.erc20);
  return pair;
}

/** A genesis coin's denom on this chain: a voucher named by its path is `ibc/<hash>`. */
function localDenom(denomOrPath: string): string {
  return !denomOrPath.startsWith("ibc/") && denomOrPath.includes("/") ? ibcDenom(denomFromPath(denomOrPath)) : denomOrPath;
}

async function initGenesis(ctx: GenesisContext, settings: Erc20Settings, denom: string, keepers: (env: ModuleEnv) => Erc20Keepers): Promise<void> {
  const k = keepers(genesisEnv(ctx, denom));
  const keeper = k.erc20;
  // a fork of a chain that has the module keeps the remote's pairs
  if ((await keeper.pair(settings.nativeErc20)) !== undefined) return;
  const putCode = (a: string) => ctx.putCode(getBytes(a), INVALID_CODE);
  await putCode(ERC20_MODULE_ACCOUNT);
  await putCode(settings.nativeErc20);
  const bank = k.bank;
  await keeper.setToken(settings.nativeErc20, denom);
  await bank.setMetadata(denom, settings.nativeMetadata);
  for (const p of settings.pairs) {
    await keeper.setToken(p.erc20, p.denom, p.enabled);
    await putCode(p.erc20);
  }
  const traces = settings.recordTraces ? k.ics20 : undefined;
  for (const c of settings.coins) {
    const local = localDenom(c.denom);
    validateDenom(local);
    if (local === denom) throw new ModuleError(`genesis coin ${c.denom} is the native coin: its balances are the accounts' balances`);
    if (c.metadata !== undefined) await bank.setMetadata(local, c.metadata);
    for (const b of c.balances ?? []) await bank.mint(b.address, local, b.amount);
    if (!local.startsWith("ibc/")) continue;
    if ((await keeper.pairOfDenom(local)) === undefined) await registerVoucher(keeper, putCode, c.denom, traces);
    else if (local !== c.denom) await traces?.recordDenom(denomFromPath(c.denom));
  }
}

export function erc20BlockModule(settings: Erc20Settings, denom: string, onPairs: (pairs: TokenPair[]) => void, keepers: (env: ModuleEnv) => Erc20Keepers): BlockModule {
  const pairsIn = (state: StateReader) => keepers(readEnv(state)).erc20.pairs();
  return {
    name: ERC20_MODULE,
    initGenesis: (ctx) => initGenesis(ctx, settings, denom, keepers),
    stateOpened: async (state) => onPairs(await pairsIn(state)),
    // nothing runs in its blocks: hardhat_mine may reserve them
    quietBefore: () => 2n ** 62n,
    checkState: async (state) => {
      try {
        for (const p of await pairsIn(state)) if (typeof p.denom !== "string" || typeof p.enabled !== "boolean") throw new Error(`pair ${p.erc20} is not a token pair`);
      } catch (err) {
        throw new ModuleError(`the erc20 module's token pairs cannot be read: ${(err as Error).message}`);
      }
    },
  };
}
