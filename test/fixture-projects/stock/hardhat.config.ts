// Stock Hardhat, for comparison: no plugin.
import type { HardhatUserConfig } from "hardhat/types";

const config: HardhatUserConfig = { solidity: "0.8.30" };
export default config;
