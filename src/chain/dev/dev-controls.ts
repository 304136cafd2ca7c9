/**
 * The dev settings of a node (`node.dev`): what Hardhat's and geth's test-control methods set —
 * block-production settings, mining on and off, time, impersonation, dropping a pooled transaction.
 * Each takes the node's lock (src/chain/node.ts) and does what the change implies: re-arming interval
 * mining, mining what a lower gas price or a restart lets in.
 */
import type { Clock } from "../base/clock";
import type { TxPool } from "../pool/txpool";
import type { NodeSettings } from "../base/config";

/** What the controls change: the node's parts now (hardhat_reset and evm_revert replace them), under its lock. */
interface DevHost {
  /** Runs `fn` inside the node's lock. */
  change<T>(fn: () => Promise<T>): Promise<T>;
  parts(): { settings: NodeSettings; pool: TxPool; impersonated: Set<string>; clock: Clock };
  /** Sets the next block's timestamp, refused (ChainError) before the head's; called inside the lock. */
  setNextTimestamp(timestamp: bigint): void;
  /** Under automine, mines the pooled transactions that can go in a block now; called inside the lock. */
  mineWaiting(): Promise<void>;
  /** (Re)arms interval mining from the settings. */
  armIntervalMining(): void;
}

export class DevControls {
  constructor(private readonly _host: DevHost) {}

  /**
   * The settings that take effect with the next block and imply nothing else: automine
   * (evm_setAutomine: turning it on mines nothing by itself), the gas limit, coinbase and extraData
   * of later blocks, the base fee and prevRandao of the next block only.
   */
  configure(change: Partial<Pick<NodeSettings, "automine" | "gasLimit" | "coinbase" | "extraData" | "nextBaseFee" | "nextPrevRandao">>): Promise<void> {
    return this._host.change(async () => {
      Object.assign(this._host.parts().settings, change);
    });
  }

  /** evm_setIntervalMining: a block every `ms` (or a random interval in [min, max]); 0 turns it off. */
  setIntervalMining(ms: NodeSettings["intervalMs"]): Promise<void> {
    return this._host.change(async () => {
      this._host.parts().settings.intervalMs = ms;
      this._host.armIntervalMining();
    });
  }

  /** The minimum gas price; pooled transactions it now lets in are mined at once under automine. */
  setMinGasPrice(price: bigint): Promise<void> {
    return this._host.change(async () => {
      this._host.parts().settings.minGasPrice = price;
      await this._host.mineWaiting();
    });
  }

  /** miner_start: block production resumes; what waited is mined at once under automine, else at the next interval. */
  startMining(): Promise<void> {
    return this._host.change(async () => {
      this._host.parts().settings.paused = false;
      await this._host.mineWaiting();
    });
  }

  /** miner_stop: block production pauses; new transactions wait in the pool. */
  stopMining(): Promise<void> {
    return this._host.change(async () => {
      this._host.parts().settings.paused = true;
    });
  }

  /**
   * evm_setNextBlockTimestamp: the next block's timestamp. Refused (ChainError) when it goes back in
   * time, or stands still unless the config allows blocks with the same timestamp.
   */
  setNextTimestamp(timestamp: bigint): Promise<void> {
    return this._host.change(async () => this._host.setNextTimestamp(timestamp));
  }

  /** evm_increaseTime: moves the clock `seconds` forward; answers the clock's whole offset. */
  increaseTime(seconds: bigint): Promise<bigint> {
    return this._host.change(async () => this._host.parts().clock.increase(seconds));
  }

  /** hardhat_impersonateAccount: eth_sendTransaction may send from `address` without its key. */
  impersonate(address: string): Promise<void> {
    return this._host.change(async () => {
      this._host.parts().impersonated.add(address);
    });
  }

  /** Ends an impersonation; false when `address` was not impersonated. */
  stopImpersonating(address: string): Promise<boolean> {
    return this._host.change(async () => this._host.parts().impersonated.delete(address));
  }

  /** hardhat_dropTransaction: removes a pooled transaction; false when it is not in the pool. */
  dropPooled(hash: string): Promise<boolean> {
    return this._host.change(async () => {
      const { pool } = this._host.parts();
      if (pool.get(hash) === undefined) return false;
      pool.remove(hash);
      return true;
    });
  }
}
