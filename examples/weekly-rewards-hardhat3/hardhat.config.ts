import { defineConfig } from "hardhat/config";
import hardhatEthers from "@nomicfoundation/hardhat-ethers";
import hardhatMocha from "@nomicfoundation/hardhat-mocha";
import hardhatNetworkHelpers from "@nomicfoundation/hardhat-network-helpers";
import hardhatEthersChaiMatchers from "@nomicfoundation/hardhat-ethers-chai-matchers";
import hardhatEpochs from "hardhat-epochs";

export default defineConfig({
  plugins: [hardhatEthers, hardhatMocha, hardhatNetworkHelpers, hardhatEthersChaiMatchers, hardhatEpochs],
  // hardhat-epochs compiles offline with the npm "solc" package it depends on: name its version here
  solidity: "0.8.30",
  // the epochs timers of the chain (the default is Evmos's "week" then "day")
  epochs: {
    genesis: {
      epochs: [
        { identifier: "week", duration: 7 * 24 * 3600 },
        { identifier: "day", duration: 24 * 3600 },
      ],
    },
    // Evmos's staking precompile at 0x…0800 (with distribution and the rest of its family), one
    // bonded validator operated by the first account: test/Staking.test.ts delegates through it
    precompiles: { staking: true },
  },
  networks: {
    // a running `npx hardhat node` (set LOCALHOST_URL when it listens elsewhere)
    localhost: { type: "http", url: process.env.LOCALHOST_URL ?? "http://127.0.0.1:8545" },
  },
});
