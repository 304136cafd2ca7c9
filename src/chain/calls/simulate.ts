/**
 * geth's eth_simulateV1: a sequence of simulated blocks on top of a block, each with its own block
 * overrides, state overrides and calls, executed one after another in one execution context (the
 * live chain never sees them). Calls run like transactions of those blocks: state, nonces and gas
 * accumulate through the sequence; without `validation` nonces are not checked and the base fee is
 * 0 unless overridden (geth's rules). Simulated blocks run no module phases (no epoch ticks).
 */
import { Block, type BlockHeader, createBlockHeader, genRequestsRoot, genTransactionsTrieRoot } from "@ethereumjs/block";
import { MerklePatriciaTrie } from "@ethereumjs/mpt";
import { RLP } from "@ethereumjs/rlp";
import type { TypedTransaction } from "@ethereumjs/tx";
import { Address, KECCAK256_RLP, createZeroAddress, setLengthLeft } from "@ethereumjs/util";
import type { VM } from "@ethereumjs/vm";
import { Bloom, type RunTxResult, encodeReceipt, runTx } from "@ethereumjs/vm";
import { createHash } from "node:crypto";
import { cleanVmError } from "../base/vm-errors";
import type { StoredLog, StoredReceipt } from "../store/chain-store";
import { type ExecutionContext, ExecutionTimeout, enterBlock } from "../engine/context";
import { openCheckpoint } from "../engine/isolation";
import { type CallRequest, type StateOverride, applyOverrides, drawGas, readGas, transactionFrom, txGasCap } from "./execution";
import type { NodeReads } from "../reads/node-reads";
import { withContractSender } from "../engine/state-manager";
import { keccak256 } from "../../utils/keccak";
import { ChainError } from "../base/errors";

export interface BlockOverrides {
  number?: bigint;
  time?: bigint;
  gasLimit?: bigint;
  feeRecipient?: Uint8Array;
  prevRandao?: Uint8Array;
  baseFeePerGas?: bigint;
}

export interface SimBlock {
  blockOverrides?: BlockOverrides;
  stateOverrides?: StateOverride;
  calls: CallRequest[];
}

interface SimOptions {
  blocks: SimBlock[];
  validation: boolean;
  /** Add an ERC-20-style Transfer log (from 0xEeee…EEeE) for every ether transfer, in execution order (geth's traceTransfers). */
  traceTransfers?: boolean;
}

interface SimCall {
  result: RunTxResult;
  tx: TypedTransaction;
  from: Uint8Array;
  /** The call's logs as answered: its own, with the ether transfers among them under traceTransfers. */
  logs: StoredLog[];
}

interface SimulatedBlock {
  block: Block;
  /** Receipts in the chain's stored form (for the block formatter: senders, logs). */
  receipts: StoredReceipt[];
  calls: SimCall[];
}

/** A simulation refused as a whole, with geth's code (-38010 … -38026, -32602). */
class SimulationError extends ChainError {
  /** `code`: eth_simulateV1's own (-38026 too many blocks, -38020 nonce too low, …). */
  constructor(code: number, message: string) {
    super(message, undefined, code);
  }
}

/** geth's limit on the blocks of one simulation. */
export const MAX_SIMULATE_BLOCKS = 256;
/** geth's default time step between simulated blocks, seconds. */
const TIMESTAMP_INCREMENT = 12n;

const sha256 = (b: Uint8Array) => new Uint8Array(createHash("sha256").update(b).digest());

/** Fills block numbers and times (gaps become empty blocks) and checks their order, as geth's sanitizeChain. */
function sanitizeChain(base: BlockHeader, blocks: SimBlock[]): SimBlock[] {
  const out: SimBlock[] = [];
  let prevNumber = base.number;
  let prevTime = base.timestamp;
  for (const b of blocks) {
    const o: BlockOverrides = { ...(b.blockOverrides ?? {}) };
    o.number ??= prevNumber + 1n;
    if (o.number <= prevNumber) throw new SimulationError(-38020, `block numbers must be in order: ${o.number} <= ${prevNumber}`);
    if (o.number - base.number > BigInt(MAX_SIMULATE_BLOCKS)) throw new SimulationError(-38026, "too many blocks");
    for (let n = prevNumber + 1n; n < o.number; n++) {
      prevTime += TIMESTAMP_INCREMENT;
      out.push({ blockOverrides: { number: n, time: prevTime }, calls: [] });
    }
    prevNumber = o.number;
    if (o.time === undefined) o.time = prevTime + TIMESTAMP_INCREMENT;
    else if (o.time <= prevTime) throw new SimulationError(-38021, `block timestamps must be in order: ${o.time} <= ${prevTime}`);
    prevTime = o.time;
    out.push({ ...b, blockOverrides: o });
  }
  return out;
}

/** geth's codes for a call that cannot run as a transaction (txValidationError). */
function validationError(err: unknown, from: Address): SimulationError {
  if (err instanceof ExecutionTimeout) throw err;
  const msg = cleanVmError(err);
  const nonce = /account has nonce of: (\d+) tx has nonce of: (\d+)/.exec(msg);
  if (nonce !== null) {
    const [state, tx] = [BigInt(nonce[1]), BigInt(nonce[2])];
    return tx < state
      ? new SimulationError(-38010, `nonce too low: address ${from.toString()}, tx: ${tx} state: ${state}`)
      : new SimulationError(-38011, `nonce too high: address ${from.toString()}, tx: ${tx} state: ${state}`);
  }
  if (/enough funds/i.test(msg)) return new SimulationError(-38014, `insufficient funds for gas * price + value: address ${from.toString()}: ${msg}`);
  if (/base ?fee/i.test(msg)) return new SimulationError(-38012, `max fee per gas less than block base fee: address ${from.toString()}: ${msg}`);
  if (/intrinsic|gas limit is too low|gasLimit is too low/i.test(msg)) return new SimulationError(-38013, `intrinsic gas too low: ${msg}`);
  if (/not EOA/i.test(msg)) return new SimulationError(-38024, `sender not an eoa: address ${from.toString()}`);
  if (/initcode|init code/i.test(msg)) return new SimulationError(-38025, `max initcode size exceeded: ${msg}`);
  return new SimulationError(-32603, msg);
}

/** Runs the simulation in `ctx` (whose state is that of `ctx.block`); everything it does is reverted after. */
export async function simulate(node: NodeReads, ctx: ExecutionContext, opts: SimOptions): Promise<SimulatedBlock[]> {
  const common = node.common;
  const { vm } = ctx;
  const blocks = sanitizeChain(ctx.block.header, opts.blocks);
  // one pool of the RPC gas cap for every call of every block (geth's simulator): see readGas
  if (ctx.gasPool === undefined && node.config.gasCap > 0n) ctx.gasPool = { left: node.config.gasCap };
  const out: SimulatedBlock[] = [];
  let parent = ctx.block.header;
  const baseRoot = await vm.stateManager.getStateRoot();
  const checkpoint = await openCheckpoint(vm);
  try {
    for (const sim of blocks) {
      const o = sim.blockOverrides as Required<Pick<BlockOverrides, "number" | "time">> & BlockOverrides;
      const gasLimit = o.gasLimit ?? parent.gasLimit;
      const baseFee = common.isActivatedEIP(1559) ? (o.baseFeePerGas ?? (opts.validation ? parent.calcNextBaseFee() : 0n)) : undefined;
      const headerBase = {
        parentHash: parent.hash(),
        number: o.number,
        timestamp: o.time,
        gasLimit,
        coinbase: o.feeRecipient ?? parent.coinbase.bytes,
        mixHash: o.prevRandao ?? new Uint8Array(32),
        difficulty: 0n,
        nonce: new Uint8Array(8),
        baseFeePerGas: baseFee,
        withdrawalsRoot: common.isActivatedEIP(4895) ? KECCAK256_RLP : undefined,
        blobGasUsed: common.isActivatedEIP(4844) ? 0n : undefined,
        excessBlobGas: common.isActivatedEIP(4844) ? parent.calcNextExcessBlobGas(common) : undefined,
        parentBeaconBlockRoot: common.isActivatedEIP(4788) ? new Uint8Array(32) : undefined,
        requestsHash: common.isActivatedEIP(7685) ? genRequestsRoot([], sha256) : undefined,
      };
      const blockFor = (baseFeePerGas: bigint | undefined) =>
        new Block(createBlockHeader({ ...headerBase, baseFeePerGas }, { common, skipConsensusFormatValidation: true }), [], [], common.isActivatedEIP(4895) ? [] : undefined, { common });
      const execBlock = blockFor(baseFee);
      // geth's NoBaseFee outside validation: a call that names no fee runs with BASEFEE 0 (fee 0 < base fee would be invalid)
      const freeBlock = baseFee === undefined || baseFee === 0n ? execBlock : blockFor(0n);
      if (sim.stateOverrides !== undefined) await applyOverrides(vm, sim.stateOverrides);
      const calls: SimCall[] = [];
      let gasUsed = 0n;
      for (const call of sim.calls) {
        const from = new Address(call.from ?? createZeroAddress().bytes);
        const nonce = call.nonce ?? (await vm.stateManager.getAccount(from))?.nonce ?? 0n;
        const remaining = gasLimit - gasUsed;
        let gas = call.gas ?? remaining;
        if (call.gas === undefined) {
          // run wild, within the transaction cap (EIP-7825)
          const cap = txGasCap(node);
          if (gas > cap) gas = cap;
        }
        if (gasUsed + gas > gasLimit) throw new SimulationError(-38015, `block gas limit reached: ${gasUsed} >= ${gasLimit}`);
        // every call of every block draws from one pool of the RPC gas cap (ctx.gasPool), as geth's simulator does
        gas = readGas(node, ctx, gas);
        // geth's default: a type-2 transaction with no fee unless the call names its fees
        const priced = call.gasPrice !== undefined || call.maxFeePerGas !== undefined || call.maxPriorityFeePerGas !== undefined;
        const req: CallRequest = priced ? call : { ...call, maxFeePerGas: 0n, maxPriorityFeePerGas: 0n };
        const tx = transactionFrom(node, { ...req, from: from.bytes }, gas, nonce);
        let result: RunTxResult;
        const transfers = opts.traceTransfers === true ? traceTransfers(vm) : undefined;
        try {
          const block = !opts.validation && !priced ? freeBlock : execBlock;
          enterBlock(vm, block);
          // geth skips the EOA check (EIP-3607) of simulated calls, even with validation
          result = await withContractSender(vm.stateManager, from, true, () =>
            runTx(vm, { tx, block, blockGasUsed: gasUsed, skipNonce: !opts.validation, skipBlockGasLimitValidation: true, skipHardForkValidation: true }),
          );
        } catch (err) {
          throw validationError(err, from);
        } finally {
          transfers?.stop();
        }
        gasUsed += result.totalGasSpent;
        drawGas(ctx, result.totalGasSpent);
        const own = result.receipt.logs.map(([address, topics, data]) => ({ address, topics, data }));
        calls.push({ result, tx: unsignedView(tx), from: from.bytes, logs: transfers?.merge(own) ?? own });
      }
      const stateRoot = await vm.stateManager.getStateRoot();
      const bloom = new Bloom(undefined, common);
      const receiptTrie = new MerklePatriciaTrie({ common });
      const receipts: StoredReceipt[] = [];
      let cumulative = 0n;
      for (let i = 0; i < calls.length; i++) {
        const r = calls[i].result;
        cumulative += r.totalGasSpent;
        bloom.or(r.bloom);
        const receipt = { ...r.receipt, cumulativeBlockGasUsed: cumulative };
        await receiptTrie.put(RLP.encode(i), encodeReceipt(receipt, calls[i].tx.type));
        receipts.push({
          status: r.execResult.exceptionError === undefined ? 1 : 0,
          cumulativeGasUsed: cumulative,
          gasUsed: r.totalGasSpent,
          effectiveGasPrice: 0n,
          from: calls[i].from,
          contractAddress: r.createdAddress?.bytes,
          logs: r.receipt.logs.map(([address, topics, data]) => ({ address, topics, data })),
        });
      }
      const txs = calls.map((c) => c.tx);
      const header = createBlockHeader(
        {
          ...headerBase,
          stateRoot,
          gasUsed,
          logsBloom: bloom.bitvector,
          transactionsTrie: await genTransactionsTrieRoot(txs, new MerklePatriciaTrie({ common })),
          receiptTrie: calls.length === 0 ? KECCAK256_RLP : receiptTrie.root(),
        },
        { common, skipConsensusFormatValidation: true },
      );
      const block = new Block(header, txs, [], common.isActivatedEIP(4895) ? [] : undefined, { common });
      out.push({ block, receipts, calls });
      parent = header;
    }
    return out;
  } finally {
    await checkpoint.revert();
    // Computing each block's state root flushed the state caches into the trie, past the reach of
    // the revert; drop them so this VM (pooled for later contexts) reads the base state again.
    (vm.stateManager as { clearCaches?: () => void }).clearCaches?.();
    // The trie's root moved with those flushes too: put it back, or the pool hands this VM out for
    // the base state while it reads the simulated one (a later call saw the simulated nonces).
    await vm.stateManager.setStateRoot(baseRoot);
  }
}

/** An unsigned simulated transaction with geth's hash of it (keccak of its unsigned encoding), which EthereumJS refuses to compute. */
function unsignedView(tx: TypedTransaction): TypedTransaction {
  const h = keccak256(tx.serialize());
  return Object.create(tx, { hash: { value: () => h } }) as TypedTransaction;
}

/** geth's pseudo-address of the ether transfer logs, and the ERC-20 Transfer topic. */
const TRANSFER_ADDRESS = new Uint8Array(Buffer.from("eeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee", "hex"));
const TRANSFER_TOPIC = keccak256(new TextEncoder().encode("Transfer(address,address,uint256)"));

type Item = { transfer: StoredLog; pendingTo?: boolean } | "log";

/**
 * Follows one transaction's messages to place its ether transfers among its logs, as geth's
 * traceTransfers does: a call frame's transfer comes first in that frame, its LOGs follow in
 * execution order, and a reverted frame loses both. Logs a precompile emits (no LOG opcode) are
 * counted from the frame's result.
 */
function traceTransfers(vm: VM): { stop(): void; merge(logs: StoredLog[]): StoredLog[] } {
  const events = vm.evm.events;
  const frames: Item[][] = [];
  let done: Item[] = [];
  const onBefore = (msg: { caller: Address; to?: Address; value: bigint; delegatecall: boolean }) => {
    const items: Item[] = [];
    if (msg.value > 0n && !msg.delegatecall) {
      const to = msg.to?.bytes;
      items.push({
        transfer: {
          address: TRANSFER_ADDRESS,
          topics: [TRANSFER_TOPIC, setLengthLeft(msg.caller.bytes, 32), setLengthLeft(to ?? new Uint8Array(20), 32)],
          data: setLengthLeft(bigToBytes(msg.value), 32),
        },
        pendingTo: to === undefined,
      });
    }
    frames.push(items);
  };
  const onStep = (step: { opcode: { name: string } }) => {
    if (step.opcode.name.startsWith("LOG")) frames[frames.length - 1]?.push("log");
  };
  const onAfter = (res: { createdAddress?: Address; execResult: { exceptionError?: unknown; logs?: unknown[] } }) => {
    const items = frames.pop() ?? [];
    if (res.execResult.exceptionError !== undefined) return;
    for (const it of items) {
      if (it !== "log" && it.pendingTo === true && res.createdAddress !== undefined) {
        it.transfer.topics[2] = setLengthLeft(res.createdAddress.bytes, 32);
        it.pendingTo = false;
      }
    }
    const counted = items.filter((i) => i === "log").length;
    for (let k = counted; k < (res.execResult.logs?.length ?? 0); k++) items.push("log");
    if (frames.length === 0) done = items;
    else frames[frames.length - 1].push(...items);
  };
  events?.on("beforeMessage", onBefore);
  events?.on("step", onStep);
  events?.on("afterMessage", onAfter);
  return {
    stop() {
      events?.off("beforeMessage", onBefore);
      events?.off("step", onStep);
      events?.off("afterMessage", onAfter);
    },
    merge(logs) {
      const out: StoredLog[] = [];
      let next = 0;
      for (const it of done) {
        if (it === "log") {
          if (next < logs.length) out.push(logs[next++]);
        } else out.push(it.transfer);
      }
      out.push(...logs.slice(next));
      return out;
    },
  };
}

function bigToBytes(n: bigint): Uint8Array {
  const h = n.toString(16);
  return new Uint8Array(Buffer.from(h.length % 2 === 0 ? h : `0${h}`, "hex"));
}
