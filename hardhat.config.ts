/**
 * This project's own Hardhat config: the plugin loaded from source, solc pinned to the npm `solc`
 * package (compiled offline), and every `test/**\/*.test.ts` run by `npx hardhat test`.
 */
import path from "node:path";
import type { HardhatUserConfig } from "hardhat/config";
import { subtask } from "hardhat/config";
import { getAllFilesMatching } from "hardhat/internal/util/fs-utils";
import "@nomicfoundation/hardhat-ethers";
import "@nomicfoundation/hardhat-chai-matchers";
import "./src";

// This repository's runs compile with the npm solc only and download nothing (src/hardhat/solc.ts); a
// user's project tries Hardhat's download first. Child processes of the tests inherit it.
process.env.HARDHAT_EPOCHS_SOLC ??= "npm";
import { TASK_TEST_GET_TEST_FILES } from "./src/hardhat/task-names";
import { version as SOLC_VERSION } from "solc/package.json";

// Hardhat runs every .ts file under paths.tests; ours hold helpers and fixture projects too, so only
// *.test.ts files are tests. test/package/ holds the tests that need the npm registry (a second Node,
// Hardhat 3 installed, the README's installs): `npm test` leaves them out and needs no network;
// `npm run test:package` (TEST_SET=package) runs only them.
const PACKAGE_DIR = path.join(__dirname, "test", "package") + path.sep;
subtask(TASK_TEST_GET_TEST_FILES).setAction(async ({ testFiles }: { testFiles: string[] }, { config }) => {
  if (testFiles.length > 0) return testFiles.map((f) => path.resolve(process.cwd(), f));
  const pkg = process.env.TEST_SET === "package";
  const files = await getAllFilesMatching(config.paths.tests, (f) => /\.test\.[cm]?[jt]s$/.test(f) && !f.includes(`${path.sep}fixture-projects${path.sep}`) && f.startsWith(PACKAGE_DIR) === pkg);
  return files.sort();
});

const config: HardhatUserConfig = {
  solidity: { version: SOLC_VERSION },
  paths: { tests: "test" },
  mocha: { timeout: 60_000 },
  // `--network localhost` reaches a running `npx hardhat node`; tests start theirs on a free port
  networks: { localhost: { url: process.env.HARDHAT_EPOCHS_LOCALHOST_URL ?? "http://127.0.0.1:8545" } },
};

export default config;
