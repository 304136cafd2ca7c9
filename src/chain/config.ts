/**
 * The chain's settings and their defaults, the entry the hosts load while Hardhat resolves its config
 * (light: it loads no EVM). They live in src/chain/base/config.ts, under every part of the chain that
 * reads them; this file is their public door.
 */
export * from "./base/config";
