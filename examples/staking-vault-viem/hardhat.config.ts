// Hardhat 3's default template (`npx hardhat --init`, node:test + viem) with the plugin added
import hardhatToolboxViemPlugin from "@nomicfoundation/hardhat-toolbox-viem";
import { defineConfig } from "hardhat/config";
import hardhatEpochs from "hardhat-epochs";

export default defineConfig({
  plugins: [hardhatToolboxViemPlugin, hardhatEpochs],
  // hardhat-epochs compiles offline with the npm "solc" package it depends on: name its version here
  solidity: "0.8.30",
  epochs: {
    // a chain built on cosmos/evm: its timers (day, hour, minute, week), its staking, distribution
    // and gov precompiles, one bonded validator operated by the first account
    profile: "cosmos-evm",
    precompiles: {
      // 10 coins minted at each day's end, shared by the bonded validators
      distribution: { epochIdentifier: "day", rewardsPerEpoch: 10n * 10n ** 18n },
    },
  },
});
