/**
 * The chain as those who build and host it see it: the composition root (src/app/runtime.ts), the
 * shared host (src/host/) and the two Hardhat hosts. What builds a `Node` (its options, block
 * modules, the precompiles' context, the settings of a fork, pool limits), and
 * what a host reads from a running node (mined blocks, console origins, execution records, a hook
 * failure's explanation, the dev accounts' addresses).
 *
 * Above the chain a module imports src/chain/ through three entries only (eslint.config.mjs enforces
 * it): src/chain/index.ts (what serving requests needs: rpc/ and the REST routes use nothing else),
 * this one, and src/chain/config.ts (the chain's settings and their defaults, light enough for the
 * plugin to load while Hardhat resolves its config).
 */
export { addressOfKey } from "./base/crypto";
export { abortsBlock } from "./base/errors";
export type { ForkConfig } from "./fork";
export type { BlockModule } from "./base/module";
export { Node } from "./node";
export type { ConsoleOrigin, MinedBlock, NodeOptions } from "./reads/node-types";
export type { TxPoolLimits } from "./base/config";
export type { PrecompileContext } from "./store/chain-state";
export type { SystemCallExplainer } from "./block/block-producer";
export type { ExecutionFrame, ExecutionRecord } from "./engine/executions";
export { runStackTrace } from "./tracing/failure";
