import type { HardhatUserConfig } from "hardhat/config";
import "@nomicfoundation/hardhat-ethers";
import "@nomicfoundation/hardhat-chai-matchers";
import "hardhat-epochs";

const config: HardhatUserConfig = {
  // hardhat-epochs compiles offline with the npm "solc" package: name its version here
  solidity: "0.8.30",
  epochs: {
    // a chain built on cosmos/evm: its epochs (day, hour, minute, week) and its staking and
    // distribution precompiles, with one bonded validator operated by the first account
    profile: "cosmos-evm",
    precompiles: {
      // 10 coins minted at each day's end, shared by the bonded validators (the default, said here)
      distribution: { epochIdentifier: "day", rewardsPerEpoch: 10n * 10n ** 18n },
    },
  },
  networks: {
    localhost: { url: process.env.LOCALHOST_URL ?? "http://127.0.0.1:8545" },
  },
};

export default config;
