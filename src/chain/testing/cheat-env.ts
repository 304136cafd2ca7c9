/**
 * The block a Solidity test runs in, as its cheatcodes change it (`vm.warp`, `vm.roll`, `vm.fee`, …).
 * EthereumJS gives every frame of an execution the one block object its top-level call was given
 * and reads the header's fields when an opcode asks (TIMESTAMP, NUMBER, BASEFEE, COINBASE,
 * PREVRANDAO): a header whose fields are read from `TestBlockEnv` lets a cheatcode change them
 * for the rest of the test, the frame that called it included, as forge does.
 */
import type { Block, BlockHeader } from "@ethereumjs/block";
import type { Address } from "@ethereumjs/util";
import type { ExecEnv } from "../engine/context";

export class TestBlockEnv {
  number: bigint;
  timestamp: bigint;
  baseFee: bigint;
  coinbase: Address;
  prevRandao: Uint8Array;
  gasLimit: bigint;
  /** What GASPRICE answers (`vm.txGasPrice`). */
  gasPrice = 0n;

  constructor(readonly base: Block) {
    const h = base.header;
    this.number = h.number;
    this.timestamp = h.timestamp;
    this.baseFee = h.baseFeePerGas ?? 0n;
    this.coinbase = h.coinbase;
    this.prevRandao = h.prevRandao;
    this.gasLimit = h.gasLimit;
  }

  /** A copy, for a state snapshot (`vm.snapshotState`). */
  copy(): TestBlockEnv {
    const c = new TestBlockEnv(this.base);
    Object.assign(c, { number: this.number, timestamp: this.timestamp, baseFee: this.baseFee, coinbase: this.coinbase, prevRandao: this.prevRandao, gasLimit: this.gasLimit, gasPrice: this.gasPrice });
    return c;
  }

  /** The block a test's calls run in: `base`'s, with the fields above read live from this env. */
  block(): Block {
    const header = Object.create(this.base.header, {
      number: { get: () => this.number },
      timestamp: { get: () => this.timestamp },
      baseFeePerGas: { get: () => this.baseFee },
      coinbase: { get: () => this.coinbase },
      prevRandao: { get: () => this.prevRandao },
      mixHash: { get: () => this.prevRandao },
      gasLimit: { get: () => this.gasLimit },
    }) as BlockHeader;
    return Object.create(this.base, { header: { value: header } }) as Block;
  }
}

/** The env's block (precompiles read its number and time) follows the test's block env. */
export function liveBlock(env: ExecEnv, blockEnv: TestBlockEnv): void {
  env.block = {
    get number() {
      return blockEnv.number;
    },
    get timestamp() {
      return blockEnv.timestamp;
    },
  };
}
