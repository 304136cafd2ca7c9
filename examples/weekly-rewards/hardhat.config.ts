import type { HardhatUserConfig } from "hardhat/config";
import "@nomicfoundation/hardhat-ethers";
import "@nomicfoundation/hardhat-chai-matchers";
import "hardhat-epochs";
import "solidity-coverage"; // npx hardhat coverage: the lines epoch hooks run are counted too
import "hardhat-gas-reporter"; // REPORT_GAS=true npx hardhat test: gas used per contract and method

const config: HardhatUserConfig = {
  // hardhat-epochs compiles offline with the npm "solc" package: name its version here
  solidity: "0.8.30",
  // the epochs timers of the chain (the default is Evmos's "week" then "day")
  epochs: {
    genesis: {
      epochs: [
        { identifier: "week", duration: 7 * 24 * 3600 },
        { identifier: "day", duration: 24 * 3600 },
      ],
    },
  },
  gasReporter: { enabled: process.env.REPORT_GAS === "true" },
  networks: {
    // a running `npx hardhat node` (set LOCALHOST_URL when it listens elsewhere)
    localhost: { url: process.env.LOCALHOST_URL ?? "http://127.0.0.1:8545" },
  },
};

export default config;
