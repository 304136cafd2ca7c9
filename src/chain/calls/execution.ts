/**
 * Calls that create no transaction (eth_call, eth_estimateGas): run a transaction from an arbitrary
 * sender in an execution context at a block (its own VM, read-only module stores, a deadline), inside
 * a journal checkpoint that is always reverted. The live chain is never touched.
 */
import { type Block, createBlock } from "@ethereumjs/block";
import { type TypedTransaction, type TypedTxData, createTx } from "@ethereumjs/tx";
import { Address, createAccount, createZeroAddress, hexToBytes } from "@ethereumjs/util";
import { type RunTxResult, type VM, runTx } from "@ethereumjs/vm";
import { setImmediate as yieldToIo } from "node:timers/promises";
import { cleanVmError } from "../base/vm-errors";
import { type ExecutionContext, ExecutionTimeout, type GasWatch, type Touched, enterBlock, madeNoCalls } from "../engine/context";
import { openCheckpoint } from "../engine/isolation";
import { ChainError } from "../base/errors";
import type { NodeReads } from "../reads/node-reads";
import { sentBy } from "../engine/sender";
import { ChainStateManager, withContractSender } from "../engine/state-manager";
import { ExecutionRecorder } from "../engine/executions";
import { turnIfDue } from "../../utils/turn";

export interface CallRequest {
  from?: Uint8Array;
  to?: Uint8Array;
  gas?: bigint;
  gasPrice?: bigint;
  maxFeePerGas?: bigint;
  maxPriorityFeePerGas?: bigint;
  value?: bigint;
  data?: Uint8Array;
  nonce?: bigint;
  accessList?: Array<{ address: Uint8Array; storageKeys: Uint8Array[] }>;
  authorizationList?: Array<{ chainId: bigint; address: Uint8Array; nonce: bigint; yParity: bigint; r: bigint; s: bigint }>;
}

/** geth's state override set (eth_call's third parameter). */
export type StateOverride = Map<string, { balance?: bigint; nonce?: bigint; code?: Uint8Array; state?: Map<string, Uint8Array>; stateDiff?: Map<string, Uint8Array> }>;

/** EIP-7825's per-transaction gas cap (2^24), when the hardfork has it. */
const EIP7825_TX_GAS_CAP = 16_777_216n;

export function txGasCap(node: NodeReads): bigint {
  return node.common.isActivatedEIP(7825) ? EIP7825_TX_GAS_CAP : 2n ** 63n;
}

/** Gas a call gets when it names none: the smallest of the gas cap, the block gas limit and EIP-7825's cap. */
export function defaultCallGas(node: NodeReads): bigint {
  let gas = node.settings.gasLimit;
  if (node.config.gasCap > 0n && node.config.gasCap < gas) gas = node.config.gasCap;
  const cap = txGasCap(node);
  return gas < cap ? gas : cap;
}

/**
 * The gas one read execution (a call, an estimate's run, a trace, a simulated call) may use: what it
 * asked for, within the node's gas cap (geth caps a call that names more, "caller gas above
 * allowance") and what is left of its request's pool (`ExecutionContext.gasPool`). A request never
 * runs more EVM work than the cap allows it, whatever gas it names or block gas limit it sets.
 */
export function readGas(node: NodeReads, ctx: Pick<ExecutionContext, "gasPool">, asked: bigint): bigint {
  let gas = asked;
  const cap = node.config.gasCap;
  if (cap > 0n && gas > cap) gas = cap;
  const pool = ctx.gasPool;
  if (pool !== undefined) {
    if (pool.left <= 0n) throw new ChainError(`gas limit reached: the request used all of the node's RPC gas cap (${node.config.gasCap})`);
    if (gas > pool.left) gas = pool.left;
  }
  return gas;
}

/** Draws what an execution used from its request's pool (see readGas). */
export function drawGas(ctx: Pick<ExecutionContext, "gasPool">, used: bigint): void {
  if (ctx.gasPool !== undefined) ctx.gasPool.left = used >= ctx.gasPool.left ? 0n : ctx.gasPool.left - used;
}

/** Builds an unsigned transaction whose sender is `from` (used for calls and impersonated accounts). */
export function transactionFrom(node: NodeReads, req: CallRequest, gas: bigint, nonce: bigint): TypedTransaction {
  // The VM asks the transaction for its sender; an unsigned one answers with the caller we were given.
  return sentBy(unsignedTransaction(node, req, gas, nonce, { freeze: false }), new Address(req.from ?? new Uint8Array(20)));
}

/**
 * The unsigned transaction of `req` (no sender: see transactionFrom). Frozen unless told otherwise:
 * the transactions its `sign()` makes keep its options, and EthereumJS caches a recovered sender on a
 * frozen transaction only.
 */
export function unsignedTransaction(node: NodeReads, req: CallRequest, gas: bigint, nonce: bigint, opts: { freeze?: boolean } = {}): TypedTransaction {
  // EthereumJS refuses such a transaction when it is built; say why in geth's words
  if (gas > txGasCap(node)) throw new ChainError(`transaction gas limit too high (cap: ${txGasCap(node)}, tx: ${gas})`);
  const base = {
    nonce,
    gasLimit: gas,
    to: req.to,
    value: req.value ?? 0n,
    data: req.data ?? new Uint8Array(),
  };
  let txData: TypedTxData;
  const accessList = (req.accessList ?? []).map((e) => ({ address: new Address(e.address).toString(), storageKeys: e.storageKeys.map((k) => `0x${Buffer.from(k).toString("hex")}` as `0x${string}`) }));
  if (req.authorizationList !== undefined) {
    txData = {
      ...base,
      type: 4,
      maxFeePerGas: req.maxFeePerGas ?? req.gasPrice ?? 0n,
      maxPriorityFeePerGas: req.maxPriorityFeePerGas ?? 0n,
      accessList,
      authorizationList: req.authorizationList.map((a) => ({
        chainId: `0x${a.chainId.toString(16)}`,
        address: new Address(a.address).toString(),
        nonce: `0x${a.nonce.toString(16)}`,
        yParity: `0x${a.yParity.toString(16)}`,
        r: `0x${a.r.toString(16)}`,
        s: `0x${a.s.toString(16)}`,
      })),
    } as TypedTxData;
  } else if (req.maxFeePerGas !== undefined || req.maxPriorityFeePerGas !== undefined) {
    txData = { ...base, type: 2, maxFeePerGas: req.maxFeePerGas ?? req.maxPriorityFeePerGas ?? 0n, maxPriorityFeePerGas: req.maxPriorityFeePerGas ?? 0n, accessList };
  } else if (req.accessList !== undefined) {
    txData = { ...base, type: 1, gasPrice: req.gasPrice ?? 0n, accessList };
  } else {
    txData = { ...base, type: 0, gasPrice: req.gasPrice ?? 0n };
  }
  return createTx(txData, { common: node.common, freeze: opts.freeze ?? true });
}

export class CallFailure extends Error {
  constructor(readonly result: RunTxResult) {
    super(result.execResult.exceptionError?.error ?? "failed");
  }
}

interface CallOptions {
  overrides?: StateOverride;
  /** The deadline of the whole execution (for an estimate: of the whole search), ms; 0 = none. */
  timeoutMs?: number;
  /** Report console.log lines (an estimate reports those of its first run only, as Hardhat does). */
  consoleLog?: boolean;
  /** Check neither the sender's balance nor the base fee (Hardhat's eth_call and eth_estimateGas). */
  lenient?: boolean;
  /** Tell the node's `executed` listeners (gas statistics count eth_calls, as EDR's do; not estimates). */
  report?: boolean;
}

/**
 * Runs `req` against block `n`'s state (the live state for the head), with optional state overrides,
 * and returns the VM result. Invalid transactions (fees, balance) throw ChainError; a deadline
 * passed throws ExecutionTimeout.
 */
export async function runCall(node: NodeReads, req: CallRequest, n: bigint, opts: CallOptions = {}): Promise<RunTxResult> {
  const ctx = await node.contextAt(n, { timeoutMs: opts.timeoutMs, consoleLog: opts.consoleLog });
  const recorder = opts.report === true && node.listenerCount("executed") > 0 ? new ExecutionRecorder() : undefined;
  ctx.env.executions = recorder;
  try {
    const result = await runInContext(node, ctx, req, opts.overrides, undefined, opts.lenient);
    recorder?.finish("call", result.totalGasSpent);
    for (const e of recorder?.records ?? []) node.emit("executed", e);
    return result;
  } finally {
    ctx.env.executions = undefined;
    ctx.release();
  }
}

/**
 * Runs `req` in `ctx` (any number of times: each run is reverted). The result always carries the
 * addresses and slots it touched (`accessList`: eth_createAccessList reads it, and the context's
 * caches are warmed with it).
 */
export async function runInContext(
  node: NodeReads,
  ctx: ExecutionContext,
  req: CallRequest,
  overrides?: StateOverride,
  gasOverride?: bigint,
  lenient = false,
  /** Sees the result while the call's state changes are still in place (a tracer's diff of them). */
  beforeRevert?: (result: RunTxResult) => Promise<void>,
): Promise<RunTxResult> {
  const { vm } = ctx;
  const from = new Address(req.from ?? createZeroAddress().bytes);
  const noFee = lenient || ((req.gasPrice ?? 0n) === 0n && (req.maxFeePerGas ?? 0n) === 0n);
  const execBlock = callContext(node, ctx.block, noFee);
  let touched: RunTxResult["accessList"];
  if (ctx.touched !== undefined) {
    const earlier = ctx.touched;
    ctx.touched = undefined;
    await warmCaches(vm, earlier);
  }
  const checkpoint = await openCheckpoint(vm);
  try {
    if (overrides !== undefined) await applyOverrides(vm, overrides);
    const nonce = req.nonce ?? (await vm.stateManager.getAccount(from))?.nonce ?? 0n;
    const gas = readGas(node, ctx, gasOverride ?? req.gas ?? defaultCallGas(node));
    const tx = transactionFrom(node, { ...req, from: from.bytes }, gas, nonce);
    try {
      // calls run from any address, contracts included (EIP-3607 is for signed transactions)
      enterBlock(vm, execBlock);
      const begun = ctx.env.messagesBegun ?? 0;
      const result = await withContractSender(vm.stateManager, from, true, () =>
        runTx(vm, { tx, block: execBlock, skipNonce: true, skipBalance: lenient, skipBlockGasLimitValidation: true, skipHardForkValidation: true, reportAccessList: true }),
      );
      if (ctx.env.messagesBegun === begun + 1) madeNoCalls.add(result);
      touched = result.accessList;
      drawGas(ctx, result.totalGasSpent);
      await beforeRevert?.(result);
      return result;
    } catch (err) {
      if (err instanceof ExecutionTimeout) throw err;
      throw new ChainError(cleanVmError(err));
    }
  } finally {
    await checkpoint.revert();
    if (touched !== undefined && overrides === undefined) {
      // the sender, the recipient and the coinbase are warm from the start: the access list leaves them out
      const always = [from, execBlock.header.coinbase, ...(req.to !== undefined ? [new Address(req.to)] : [])];
      ctx.touched = [...touched, ...always.map((a) => ({ address: a.toString(), storageKeys: [] }))];
    }
  }
}

/**
 * Reads what an earlier execution touched again, outside the next one's (reverted) checkpoint: the
 * state manager's caches journal every read made inside a checkpoint and drop it on revert, so
 * without this each call at the same state would walk the trie again. It runs when the next
 * execution in the same pooled VM comes (`ExecutionContext.touched`), not after each one: most calls
 * in a test suite are the last at their state (a transaction follows). The VM keeps its caches when
 * it moves to the next state (VmPool in src/chain/engine/context.ts), so what was read there is
 * mostly a cache hit.
 */
async function warmCaches(vm: VM, touched: Touched): Promise<void> {
  const sm = vm.stateManager;
  for (const { address, storageKeys } of touched) {
    const a = new Address(hexToBytes(address as `0x${string}`));
    const account = await sm.getAccount(a);
    if (account === undefined) continue;
    if (account.isContract()) await sm.getCode(a);
    for (const k of storageKeys) await sm.getStorage(a, hexToBytes(k as `0x${string}`));
  }
  // these reads are logged as changes: the next execution's end would write them back to the trie
  if (sm instanceof ChainStateManager) sm.forgetReads();
}

/** Executions estimates have made, all told (test/chain/estimate-gas.test.ts counts them). */
export const estimateRuns = { count: 0 };

/**
 * Smallest gas with which `req` succeeds, or the failure at the cap. As geth: the run at the cap
 * gives a lower bound (the gas it used), which is the answer when a run with exactly that succeeds
 * (usually, and known without that run when the first did not depend on its gas: `sameWithGas`);
 * else the used gas × 64/63 (for the gas CALLs keep back), then a binary search. Every run is a real
 * execution in one context; the deadline covers the whole search, and the search yields to other
 * requests between runs.
 */
export async function estimateGas(node: NodeReads, req: CallRequest, n: bigint, opts: CallOptions = {}): Promise<bigint> {
  const ctx = await node.contextAt(n, { timeoutMs: opts.timeoutMs, consoleLog: opts.consoleLog });
  try {
    const run = (gas: bigint) => {
      estimateRuns.count++;
      return runInContext(node, ctx, req, opts.overrides, gas, opts.lenient);
    };
    // as geth: the search starts at most at the gas cap (each run is capped by it: readGas)
    let hi = readGas(node, ctx, req.gas ?? defaultCallGas(node));
    const watch: GasWatch = { gasObserved: false };
    ctx.env.gasWatch = watch;
    let first: RunTxResult;
    try {
      first = await run(hi);
    } finally {
      ctx.env.gasWatch = undefined;
    }
    ctx.env.console = undefined;
    if (first.execResult.exceptionError !== undefined) throw new CallFailure(first);
    let lo = first.totalGasSpent - 1n;
    const succeeds = async (gas: bigint): Promise<boolean> => {
      await yieldToIo();
      try {
        return (await run(gas)).execResult.exceptionError === undefined;
      } catch (err) {
        // too little gas for the transaction to be valid at all is a failure at that gas;
        // anything else (a deadline, a fault) is the estimate's own error
        if (err instanceof ChainError && /gas/i.test(err.message)) return false;
        throw err;
      }
    };
    // Most calls (no refund, no CALL keeping back 1/64) succeed with exactly what they used: then
    // that is the answer the search below would reach, found in one run instead of a dozen. When
    // nothing in the first run depended on the gas it had, that run is the proof and none is needed.
    if (first.totalGasSpent < hi) {
      if (sameWithGas(first, watch, hi - first.totalGasSpent)) return first.totalGasSpent;
      if (await succeeds(first.totalGasSpent)) return first.totalGasSpent;
      lo = first.totalGasSpent;
    }
    // Else what they used plus the 1/64 retained by CALLs usually suffices; try that next.
    const guess = (first.totalGasSpent * 64n) / 63n + 2300n;
    if (guess < hi) {
      if (await succeeds(guess)) hi = guess;
      else lo = guess;
    }
    while (lo + 1n < hi) {
      const mid = (lo + hi) / 2n;
      if (await succeeds(mid)) hi = mid;
      else lo = mid;
    }
    return hi;
  } finally {
    ctx.release();
  }
}

/** EIP-2200's SSTORE sentry (2300) plus a cold slot's access (2100), which later rules add to it. */
const SSTORE_GAS_MARGIN = 2300n + 2100n;

/**
 * Whether a successful run would have gone exactly the same with `less` gas fewer, hence succeeded
 * with what it used. With the same input an execution differs only where it reads how much gas is
 * left: the GAS opcode, CALL and CREATE (they pass on 63/64 of it), SSTORE's EIP-2200 sentry (it
 * fails with 2300 or less left). A refund makes the gas needed exceed the gas used.
 */
function sameWithGas(run: RunTxResult, watch: GasWatch, less: bigint): boolean {
  if (watch.gasObserved || run.gasRefund !== 0n) return false;
  return watch.minSstoreGasLeft === undefined || watch.minSstoreGasLeft - less > SSTORE_GAS_MARGIN;
}

const contexts = new WeakMap<Block, Map<boolean, Block>>();

/**
 * The block a call runs in: the block itself, with no base fee for a call without a fee (geth runs
 * those with NoBaseFee; BASEFEE then reads 0 here). Cached: building a block copies the chain config.
 */
function callContext(node: NodeReads, block: Block, noFee: boolean): Block {
  let byFee = contexts.get(block);
  if (byFee === undefined) contexts.set(block, (byFee = new Map()));
  let ctx = byFee.get(noFee);
  if (ctx === undefined) {
    const baseFeePerGas = noFee && block.header.baseFeePerGas !== undefined ? 0n : block.header.baseFeePerGas;
    ctx = createBlock({ header: { ...block.header.toJSON(), baseFeePerGas } }, { common: node.common, skipConsensusFormatValidation: true });
    byFee.set(noFee, ctx);
  }
  return ctx;
}

export async function applyOverrides(vm: VM, overrides: StateOverride): Promise<void> {
  const sm = vm.stateManager;
  for (const [addr, o] of overrides) {
    const address = new Address(new Uint8Array(Buffer.from(addr.slice(2), "hex")));
    const acc = (await sm.getAccount(address)) ?? createAccount({});
    if (o.balance !== undefined) acc.balance = o.balance;
    if (o.nonce !== undefined) acc.nonce = o.nonce;
    await sm.putAccount(address, acc);
    if (o.code !== undefined) await sm.putCode(address, o.code);
    // an override may name tens of thousands of slots: other requests get turns meanwhile
    if (o.state !== undefined) {
      await sm.clearStorage(address);
      for (const [k, v] of o.state) {
        await turnIfDue();
        await sm.putStorage(address, hexToBytes32(k), v);
      }
    }
    if (o.stateDiff !== undefined) {
      for (const [k, v] of o.stateDiff) {
        await turnIfDue();
        await sm.putStorage(address, hexToBytes32(k), v);
      }
    }
  }
}

function hexToBytes32(h: string): Uint8Array {
  return new Uint8Array(Buffer.from(h.slice(2).padStart(64, "0"), "hex"));
}
