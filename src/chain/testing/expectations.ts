/** What the cheatcodes set up for the calls that follow (src/chain/testing/cheats.ts checks them). */
import type { Address } from "@ethereumjs/util";
import type { WatchedLog } from "./log-watch";

export interface Prank {
  sender: Address;
  origin?: Address;
  depth: number;
  single: boolean;
  used: boolean;
}

export interface ExpectedRevert {
  data?: Uint8Array;
  partial: boolean;
  reverter?: Address;
  depth: number;
  count: number;
}

export interface ExpectedEmit {
  depth: number;
  checks: [boolean, boolean, boolean, boolean];
  emitter?: Address;
  template?: WatchedLog;
}

export interface ExpectedCall {
  callee: Address;
  data: Uint8Array;
  value?: bigint;
  count: number;
  exact: boolean;
  seen: number;
}

export interface Mock {
  data: Uint8Array;
  value?: bigint;
  returnData: Uint8Array;
  revert: boolean;
}
