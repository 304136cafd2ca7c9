/* eslint-disable @typescript-eslint/no-require-imports -- a CommonJS config: Hardhat loads it with require(), no compiler */
// This repository's project (root: the repository) with the plugin loaded as an installed package
// loads it: from dist/, through a JavaScript config, so no TypeScript compiler runs in the process.
// Tests that start `hardhat node` and the plugin's tasks as child processes use it
// (test/helpers/processes.ts, hardhatCli): a child reaches its banner in ~0.7 s instead of ~4.5 s.
// It follows the repository's hardhat.config.ts in what a child process reads (solc, localhost).
const path = require("node:path");
require("../../../dist/src");

module.exports = {
  solidity: { version: require("solc/package.json").version },
  paths: { root: path.resolve(__dirname, "../../..") },
  networks: { localhost: { url: process.env.HARDHAT_EPOCHS_LOCALHOST_URL ?? "http://127.0.0.1:8545" } },
};
