// Hardhat's own node (EDR) for `npm run bench`: the project's settings without this plugin.
import type { HardhatUserConfig } from "hardhat/config";

const config: HardhatUserConfig = {
  solidity: "0.8.30",
  // sources: a folder without .sol files, so starting the node compiles nothing (no compiler download)
  paths: { root: "..", sources: "scripts", cache: "cache/edr", artifacts: "artifacts/edr" },
  networks: { hardhat: { chainId: 9000 } },
};

export default config;
