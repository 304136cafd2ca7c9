/**
 * The repository's own Solidity tests (contracts/test/solidity/*.t.sol) as a project runs them with
 * `hardhat test:solidity`: the repository's contracts compiled with the npm solc, artifacts of their
 * own, the profile from EPOCHS_PROFILE (evmos or cosmos-evm).
 */
import path from "node:path";
import type { HardhatUserConfig } from "hardhat/types";
import { version as SOLC_VERSION } from "solc/package.json";
import "../../../src";

process.env.HARDHAT_EPOCHS_SOLC ??= "npm";
const profile = process.env.EPOCHS_PROFILE === "cosmos-evm" ? "cosmos-evm" : "evmos";
const out = process.env.SOLIDITY_TESTS_OUT ?? path.join(__dirname, ".out");

const config: HardhatUserConfig = {
  solidity: { version: SOLC_VERSION },
  paths: { root: path.join(__dirname, "..", "..", ".."), sources: "contracts", artifacts: path.join(out, profile, "artifacts"), cache: path.join(out, profile, "cache") },
  epochs: { profile, precompiles: { staking: true }, solidityTests: { fuzz: { runs: 32, seed: "0x5eed", maxTestRejects: 500 } } },
};
export default config;
