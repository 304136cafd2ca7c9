import type { HardhatUserConfig } from "hardhat/config";
import "@nomicfoundation/hardhat-ethers";
import "@nomicfoundation/hardhat-chai-matchers";
import "hardhat-epochs";

const config: HardhatUserConfig = {
  // hardhat-epochs compiles offline with the npm "solc" package: name its version here
  solidity: "0.8.30",
  epochs: {
    // a chain built on cosmos/evm: its epochs (day, hour, minute, week), x/erc20 and ICS20
    profile: "cosmos-evm",
    precompiles: {
      // one open transfer channel; its other end is channel-141 on the Cosmos Hub
      ics20: { channels: [{ channelId: "channel-0", counterpartyChannelId: "channel-141", counterpartyChainId: "cosmoshub-4" }] },
    },
  },
  networks: {
    localhost: { url: process.env.LOCALHOST_URL ?? "http://127.0.0.1:8545" },
  },
};

export default config;
