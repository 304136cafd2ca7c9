/**
 * The ERC-20 precompile of a token pair (cosmos/evm precompiles/erc20) and the native coin's
 * wrapped one (precompiles/werc20), on the chain's precompile framework (src/chain/base/precompile.ts):
 * - balances and supply are the bank's (src/cosmos/bank/keeper.ts): the native coin's is the EVM balance,
 *   so WERC20's `balanceOf` is `eth_getBalance`; transfers are bank sends, allowances x/erc20's;
 * - gas is cosmos/evm's flat price per method, nothing charged for store access (its erc20
 *   precompile has an empty KV gas config);
 * - failures are its texts (`ERC20: transfer amount exceeds balance`, `ERC20: insufficient
 *   allowance`, `coin 0atest amount is not positive` for a transfer of nothing, …);
 * - WERC20's `deposit()` (and its fallback and receive) gives the coins sent back to the sender and
 *   emits `Deposit`; `withdraw(wad)` checks the balance and emits `Withdrawal`: on a Cosmos chain the
 *   native coin and its ERC-20 are one balance. As there, WERC20 does not refuse value sent to its
 *   other methods (it stays with the precompile's account), the plain ERC-20 does.
 * A pair's address answers as an empty account in a state where the pair is not registered (the
 * precompile exists in the VM from its registration on: src/chain/engine/evm.ts).
 */
import type { ExecResult, PrecompileInput } from "@ethereumjs/evm";
import { type FunctionFragment, Interface } from "ethers/abi";
import { getAddress } from "ethers/address";
import { hexlify } from "ethers/utils";
import { GasMeter, type PrecompileHandler, type PrecompilePolicy, PrecompileRevert, createPrecompile } from "../../chain/base/precompile";
import type { BankKeeper, Erc20Keepers } from "./expected-keepers";
import type { Erc20Keeper, TokenPair } from "./keeper";
import { type ModuleEnv } from "../common/module-env";
import { ModuleError } from "../common/errors";
import { precompileEnv } from "../common/module-env";
import { COSMOS_POLICY, type ModulePrecompileDeps } from "../common/module-precompile";

const ERC20_FRAGMENTS = [
  "function name() view returns (string)",
  "function symbol() view returns (string)",
  "function decimals() view returns (uint8)",
  "function totalSupply() view returns (uint256)",
  "function balanceOf(address account) view returns (uint256)",
  "function allowance(address owner, address spender) view returns (uint256)",
  "function transfer(address to, uint256 amount) returns (bool)",
  "function transferFrom(address from, address to, uint256 amount) returns (bool)",
  "function approve(address spender, uint256 amount) returns (bool)",
  "event Transfer(address indexed from, address indexed to, uint256 value)",
  "event Approval(address indexed owner, address indexed spender, uint256 value)",
];

export const ERC20_ABI = new Interface(ERC20_FRAGMENTS);

export const WERC20_ABI = new Interface([
  ...ERC20_FRAGMENTS,
  "function deposit() payable",
  "function withdraw(uint256 wad)",
  "event Deposit(address indexed dst, uint256 wad)",
  "event Withdrawal(address indexed src, uint256 wad)",
]);

/** cosmos/evm's flat gas per method (precompiles/erc20/erc20.go, werc20/werc20.go). */
const ERC20_GAS: Readonly<Record<string, bigint>> = {
  transfer: 9_000n,
  transferFrom: 30_500n,
  approve: 8_100n,
  name: 3_421n,
  symbol: 3_464n,
  decimals: 427n,
  totalSupply: 2_480n,
  balanceOf: 2_870n,
  allowance: 3_225n,
  deposit: 23_878n,
  withdraw: 9_207n,
};

const TRANSACTIONS = new Set(["transfer", "transferFrom", "approve", "deposit", "withdraw"]);

// cosmos/evm's flat prices; its refusals are the other Cosmos precompiles' (an unknown selector, a short input: no gas)
const POLICY: PrecompilePolicy = { baseGas: (fn) => ERC20_GAS[fn.name] ?? 0n, refusal: COSMOS_POLICY.refusal };

/** The ERC-20 errors cosmos/evm maps the bank's to (precompiles/erc20/errors.go `ConvertErrToERC20Error`). */
function erc20Error(err: unknown): unknown {
  if (!(err instanceof ModuleError)) return err;
  if (err.message.includes("spendable balance")) return new PrecompileRevert("ERC20: transfer amount exceeds balance");
  return err;
}

/**
 * How the ERC-20's name, symbol and decimals read (cosmos/evm precompiles/erc20/query.go): the bank's
 * metadata; else, for an IBC voucher whose trace this chain has, what its base denom says (`uatom`:
 * "Atom", "ATOM", 6 decimals for a `u` prefix, 18 for `a`); else the call reverts.
 */
async function metadata(k: Erc20Keepers, denom: string, fn: FunctionFragment): Promise<unknown[]> {
  const m = await k.bank.metadata(denom);
  if (m !== undefined) return [fn.name === "name" ? m.name : fn.name === "symbol" ? m.symbol : m.decimals];
  const base = denom.startsWith("ibc/") ? (await k.ics20.denom(denom.slice(4)))?.base : undefined;
  if (base === undefined || base.length < 3) throw new PrecompileRevert("execution reverted");
  if (fn.name === "name") return [base[1].toUpperCase() + base.slice(2)];
  if (fn.name === "symbol") return [base.slice(1).toUpperCase()];
  if (base[0] === "u") return [6];
  if (base[0] === "a") return [18];
  throw new PrecompileRevert("execution reverted");
}

/** The precompile of the pair at `address`; `wrapped` gives it WERC20's deposit and withdraw (the native coin's pair). */
export function createErc20Precompile(
  address: string,
  wrapped: boolean,
  deps: ModulePrecompileDeps & { value(input: PrecompileInput): bigint },
  keepers: (env: ModuleEnv) => Erc20Keepers,
): (input: PrecompileInput) => Promise<ExecResult> {
  const erc20 = getAddress(address);
  const abi = wrapped ? WERC20_ABI : ERC20_ABI;
  // the modules' records and coins, free of gas: these precompiles charge their flat prices only
  const envOf = (input: PrecompileInput) => precompileEnv(input, deps.block(input), deps.denom, new GasMeter(2n ** 255n));
  // the pair each running call found in its state (calls in other VMs run at the same time)
  const pairs = new WeakMap<PrecompileInput, TokenPair>();
  const denomOf = (input: PrecompileInput): string => (pairs.get(input) as TokenPair).denom;
  const view =
    (f: (call: { keepers: Erc20Keepers; bank: BankKeeper; keeper: Erc20Keeper; denom: string; args: unknown[]; fn: FunctionFragment }) => Promise<unknown[]>): PrecompileHandler =>
    async (call) => {
      const k = keepers(envOf(call.input));
      return f({ keepers: k, bank: k.bank, keeper: k.erc20, denom: denomOf(call.input), args: [...call.args], fn: call.fn });
    };
  const transfer = async (c: Parameters<PrecompileHandler>[0], from: string, to: string, amount: bigint): Promise<unknown[]> => {
    const k = keepers(envOf(c.input));
    const bank = k.bank;
    const denom = denomOf(c.input);
    if (amount === 0n) throw new PrecompileRevert(`coin 0${denom} amount is not positive`);
    const spender = getAddress(hexlify(c.caller));
    let left: bigint | undefined;
    if (c.fn.name === "transferFrom") {
      const keeper = k.erc20;
      left = (await keeper.allowance(erc20, from, spender)) - amount;
      if (left < 0n) throw new PrecompileRevert("ERC20: insufficient allowance");
      await keeper.setAllowance(erc20, from, spender, left);
    }
    try {
      await bank.send(from, to, denom, amount);
    } catch (err) {
      throw erc20Error(err);
    }
    c.emit("Transfer", [from, to, amount]);
    if (left !== undefined) c.emit("Approval", [from, spender, left]);
    return [true];
  };
  const handlers: Record<string, PrecompileHandler> = {
    name: view(({ keepers: k, denom, fn }) => metadata(k, denom, fn)),
    symbol: view(({ keepers: k, denom, fn }) => metadata(k, denom, fn)),
    decimals: view(({ keepers: k, denom, fn }) => metadata(k, denom, fn)),
    totalSupply: view(async ({ bank, denom }) => [await bank.supplyOf(denom)]),
    balanceOf: view(async ({ bank, denom, args }) => [await bank.balance(args[0] as string, denom)]),
    allowance: view(async ({ keeper, args }) => [await keeper.allowance(erc20, args[0] as string, args[1] as string)]),
    transfer: (c) => transfer(c, getAddress(hexlify(c.caller)), getAddress(c.args[0] as string), c.args[1] as bigint),
    transferFrom: (c) => transfer(c, getAddress(c.args[0] as string), getAddress(c.args[1] as string), c.args[2] as bigint),
    approve: async (c) => {
      const owner = getAddress(hexlify(c.caller));
      const spender = getAddress(c.args[0] as string);
      const amount = c.args[1] as bigint;
      // x/erc20 keeps no zero allowances: approving 0 deletes one
      await keepers(envOf(c.input)).erc20.setAllowance(erc20, owner, spender, amount);
      c.emit("Approval", [owner, spender, amount]);
      return [true];
    },
  };
  const deposit = async (c: { input: PrecompileInput; caller: Uint8Array; value: bigint; emit: (e: string, v: unknown[]) => void }): Promise<void> => {
    const caller = getAddress(hexlify(c.caller));
    // the EVM moved the value to the precompile's account: the bank sends it back, the ERC-20 view being the same balance
    await keepers(envOf(c.input)).bank.send(erc20, caller, denomOf(c.input), c.value);
    c.emit("Deposit", [caller, c.value]);
  };
  if (!wrapped) {
    // the plain ERC-20 takes no value with any method (cosmos/evm checks it before the method runs)
    for (const [name, handler] of Object.entries(handlers)) {
      handlers[name] = async (c) => {
        if (c.value > 0n) throw new PrecompileRevert(`cannot receive funds, received: ${c.value}`);
        return handler(c);
      };
    }
  } else {
    handlers.deposit = async (c) => {
      await deposit(c);
      return [];
    };
    handlers.withdraw = async (c) => {
      const caller = getAddress(hexlify(c.caller));
      const wad = c.args[0] as bigint;
      const balance = await keepers(envOf(c.input)).bank.balance(caller, denomOf(c.input));
      if (balance < wad) throw new PrecompileRevert(`account balance ${balance} is lower than withdraw balance ${wad}`);
      c.emit("Withdrawal", [caller, wad]);
      return [];
    };
  }
  const run = createPrecompile(
    {
      address: erc20,
      abi,
      handlers,
      transactions: TRANSACTIONS,
      policy: POLICY,
      // WERC20's fallback and receive deposit; RequiredGas prices short input as a deposit and an unknown selector at 0
      ...(wrapped ? { fallback: { handler: deposit, gas: (data: Uint8Array) => (data.length < 4 ? ERC20_GAS.deposit : 0n) } } : {}),
    },
    deps,
  );
  return async (input) => {
    // the pair of this state: none (not registered at this height, or disabled) answers as an account without code
    const pair = await keepers(envOf(input)).erc20.pair(erc20);
    if (pair === undefined || !pair.enabled) return { returnValue: new Uint8Array(), executionGasUsed: 0n };
    pairs.set(input, pair);
    return run(input);
  };
}
