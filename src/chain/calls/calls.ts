/**
 * What the node runs without keeping anything, and the transactions it prepares: calls, estimates,
 * access-list runs, eth_simulateV1, and a send's or a fill's defaults (geth's and Evmos's order).
 * One per node (`Node.calls`), over its read half (src/chain/reads/node-reads.ts); the work itself is in
 * src/chain/calls/execution.ts, simulate.ts and src/chain/calls/accounts.ts.
 */
import { type TypedTransaction, createTxFromRLP } from "@ethereumjs/tx";
import { Address } from "@ethereumjs/util";
import { signAs } from "./accounts";
import { ChainError } from "../base/errors";
import type { AfterNode, NodeReads } from "../reads/node-reads";
import { type CallRequest, defaultCallGas, estimateGas, runCall, runInContext, transactionFrom, txGasCap } from "./execution";
import { signedBy } from "../engine/sender";
import { MAX_SIMULATE_BLOCKS, simulate } from "./simulate";
import type { TxPool } from "../pool/txpool";

/** The tip the node suggests and a send gets when it names none (Hardhat's default priority fee). */
const DEFAULT_PRIORITY_FEE = 1_000_000_000n;

/** A transaction as a client asks for it (eth_sendTransaction, eth_fillTransaction, eth_signTransaction). */
interface SendRequest extends CallRequest {
  chainId?: bigint;
  type?: bigint;
}

export class Calls {
  /** The most blocks one eth_simulateV1 may simulate. */
  readonly maxSimulateBlocks = MAX_SIMULATE_BLOCKS;
  /** The tip the node suggests (eth_maxPriorityFeePerGas) and a send gets when it names none. */
  readonly defaultTip = DEFAULT_PRIORITY_FEE;

  /** `pool`: the node's pool now (hardhat_reset replaces it), whose pending nonces a fill or a send takes. */
  constructor(
    private readonly _node: NodeReads,
    private readonly _pool: () => TxPool,
  ) {}

  /** eth_call: `req` against block `n`'s state (src/chain/calls/execution.ts, runCall). */
  run(...a: AfterNode<typeof runCall>): ReturnType<typeof runCall> {
    return runCall(this._node, ...a);
  }

  /** eth_estimateGas (src/chain/calls/execution.ts, estimateGas). */
  estimateGas(...a: AfterNode<typeof estimateGas>): ReturnType<typeof estimateGas> {
    return estimateGas(this._node, ...a);
  }

  /** One run of `req` in an execution context, reverted after (eth_createAccessList's rounds). */
  runInContext(...a: AfterNode<typeof runInContext>): ReturnType<typeof runInContext> {
    return runInContext(this._node, ...a);
  }

  /** eth_simulateV1's blocks in an execution context (src/chain/calls/simulate.ts). */
  simulate(...a: AfterNode<typeof simulate>): ReturnType<typeof simulate> {
    return simulate(this._node, ...a);
  }

  /** Gas a call gets when it names none: the smallest of the gas cap, the block gas limit and EIP-7825's cap. */
  defaultGas(): bigint {
    return defaultCallGas(this._node);
  }

  /**
   * The transaction eth_sendTransaction would sign for `req`, unsigned (eth_fillTransaction): gas
   * `defaultGas` when none is given, type-2 fees with a 1 gwei tip and max fee tip + 2 × the next
   * base fee, legacy when gasPrice is given, the pending nonce, the node's chain id.
   */
  async fill(req: SendRequest, defaultGas: bigint): Promise<TypedTransaction> {
    if (req.from === undefined && req.nonce === undefined) throw new ChainError("missing from: a transaction without nonce needs its sender to find the next nonce");
    const from = new Address(req.from ?? new Uint8Array(20));
    const { filled, nonce } = await this._defaults({ ...req, from: from.bytes });
    if (req.type === 1n) filled.accessList = req.accessList ?? [];
    return transactionFrom(this._node, filled, req.gas ?? defaultGas, nonce);
  }

  /**
   * eth_sendTransaction's transaction: `req` with the same defaults as `fill` (gas `defaultGas` when
   * it fits the per-transaction cap, else the call default), signed with `key` when given, else with
   * a dev account's key or as an impersonated account.
   */
  async sign(req: SendRequest, defaultGas: bigint, key?: Uint8Array): Promise<TypedTransaction> {
    if (req.from === undefined) throw new ChainError("missing from: the sender of eth_sendTransaction is required");
    const from = new Address(req.from);
    const { filled, nonce } = await this._defaults(req);
    const gas = req.gas ?? (defaultGas < txGasCap(this._node) ? defaultGas : defaultCallGas(this._node));
    return signAs(this._node, from, filled, gas, nonce, key ?? this._node.keys.get(from.toString()));
  }

  /**
   * A signed transaction from its raw bytes (eth_sendRawTransaction), its sender recovered once;
   * refused in geth's words when it does not decode, is for another chain, is unsigned, is not
   * replay-protected (unless `allowUnprotected`) or its signature does not recover.
   */
  decodeSigned(raw: Uint8Array, opts: { allowUnprotected: boolean }): TypedTransaction {
    const node = this._node;
    let unfrozen: TypedTransaction;
    try {
      // unfrozen until its sender is known (signedBy)
      unfrozen = createTxFromRLP(raw, { common: node.common, freeze: false });
    } catch (err) {
      const message = (err as Error).message;
      const have = signedChainId(message);
      // EthereumJS words a foreign chain id with a function's source in it: geth's words instead
      if (have !== undefined) throw new ChainError(`invalid chain id for signer: have ${have} want ${node.config.chainId}`);
      throw new ChainError(`invalid transaction: ${message.split(" (")[0]}`);
    }
    if (!unfrozen.isSigned()) throw new ChainError("invalid transaction: not signed");
    if (unfrozen.type === 0 && !unfrozen.supports(155) && !opts.allowUnprotected) {
      throw new ChainError("only replay-protected (EIP-155) transactions allowed over RPC");
    }
    try {
      return signedBy(unfrozen);
    } catch {
      throw new ChainError("invalid sender: the signature does not recover");
    }
  }

  /** Builds and signs a transaction whose gas and nonce are decided (see src/chain/calls/accounts.ts, signAs). */
  signAs(...a: AfterNode<typeof signAs>): TypedTransaction {
    return signAs(this._node, ...a);
  }

  /** The checks and fee defaults `fill` and `sign` share; `req.from` is set. */
  private async _defaults(req: SendRequest): Promise<{ filled: SendRequest; nonce: bigint }> {
    const node = this._node;
    if (req.chainId !== undefined && req.chainId !== node.config.chainId) {
      throw new ChainError(`chainId does not match node's (have=${req.chainId}, want=${node.config.chainId})`);
    }
    if (req.to === undefined && (req.data === undefined || req.data.length === 0)) throw new ChainError("contract creation without any data provided");
    const from = new Address(req.from as Uint8Array);
    const nonce = req.nonce ?? this._pool().nextNonce(from.toString(), await node.getNonce(from));
    const filled: SendRequest = { ...req };
    if (req.gasPrice !== undefined || req.type === 0n || req.type === 1n) {
      filled.gasPrice = req.gasPrice ?? node.nextBaseFee() + DEFAULT_PRIORITY_FEE;
    } else {
      const tip = req.maxPriorityFeePerGas ?? DEFAULT_PRIORITY_FEE;
      filled.maxPriorityFeePerGas = tip;
      filled.maxFeePerGas = req.maxFeePerGas ?? tip + 2n * node.nextBaseFee();
      if (filled.maxFeePerGas < tip) throw new ChainError(`maxFeePerGas (${filled.maxFeePerGas}) < maxPriorityFeePerGas (${tip})`);
    }
    return { filled, nonce };
  }
}

/**
 * The chain id a transaction was signed for, from EthereumJS's refusal of one signed for another
 * chain: a typed transaction's "… not matching the derived chain ID N", a legacy one's "Incompatible
 * EIP155-based V v and chain id …" (EIP-155: v = 2·id + 35 or + 36). Undefined for other errors.
 */
function signedChainId(message: string): bigint | undefined {
  const typed = /not matching the derived chain ID (\d+)/.exec(message);
  if (typed !== null) return BigInt(typed[1]);
  const legacy = /Incompatible EIP155-based V (\d+) and chain id/.exec(message);
  if (legacy !== null) return (BigInt(legacy[1]) - 35n) / 2n;
  return undefined;
}
