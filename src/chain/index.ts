/**
 * The chain as the JSON-RPC layer sees it: `Node` and the few entry points and types its handlers use
 * (docs/architecture.md). rpc/ imports the chain from here only; the builders and hosts above it have
 * src/chain/setup.ts and src/chain/config.ts besides; everything else under src/chain/ is the chain's
 * own (eslint.config.mjs enforces it).
 */
export type { BlockPhase, ModuleEvent } from "./base/module";
export type { Node } from "./node";
export type { Inclusion, MinedBlock, Prepared } from "./reads/node-types";
export { ChainError } from "./base/errors";
export { describeFailure } from "./base/vm-errors";
export { maxFeeOf } from "./pool/txpool";
export type { PooledTx } from "./pool/txpool";
export type { StoredLog, StoredReceipt } from "./store/chain-store";
export { runsClientCode } from "./tracing";
export type { TraceConfig } from "./tracing";
export type { BlockOverrides, TxTrace } from "./tracing/run";
export { CallFailure } from "./calls/execution";
export type { CallRequest, StateOverride } from "./calls/execution";
export type { SimBlock } from "./calls/simulate";
export type { IndexedTx } from "./store/address-index";
export type { CallFrame } from "./tracing/call-tracer";
export { TestVm, TEST_SENDER } from "./testing/test-vm";
export { VM_ADDRESS } from "./testing/cheats";
export { ASSUME_MAGIC } from "./testing/cheat-failure";
export type { EpochClock } from "./testing/chain-cheats";
