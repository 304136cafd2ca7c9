/**
 * The plugin's entry loads with every Hardhat task, so the modules it imports at the top must stay
 * light. Heavy ones load here, on first use: the epochs module (protobufjs, EthereumJS), the chain's
 * config (ethers). Each function returns the module itself, typed, so call sites read as usual.
 */
/* eslint-disable @typescript-eslint/no-require-imports -- deferred CommonJS loads (import() would be native ESM here) */

export function epochsModule(): typeof import("../epochs") {
  return require("../epochs") as typeof import("../epochs");
}

export function cosmosModule(): typeof import("../cosmos") {
  return require("../cosmos") as typeof import("../cosmos");
}

export function chainConfigModule(): typeof import("../chain/config") {
  return require("../chain/config") as typeof import("../chain/config");
}
