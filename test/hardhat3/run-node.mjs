// Runs Hardhat 3's `node` task of this repository's dist/ the way Hardhat 3 calls it, without a
// Hardhat 3 install: the plugin's config hooks resolve the user's config, then the task's action
// gets Hardhat 3's argument shape ("" or -1 for an option not given). Input: JSON in HH3_NODE
// ({ dist, userConfig, paths, args }). A failure prints the error's class and message and exits 1.
// `hardhat/plugins` is stood in for (plugins-stand-in.mjs).
import "./plugins-stand-in.mjs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const { dist, userConfig, paths, args } = JSON.parse(process.env.HH3_NODE);
const load = (file) => import(pathToFileURL(path.join(dist, "src/hardhat3", file)).href);
try {
  const hooks = await (await load("hooks/config.mjs")).default();
  const extended = await hooks.extendUserConfig(userConfig, async (c) => c);
  const config = await hooks.resolveUserConfig(extended, undefined, async (u) => ({ paths, networks: u.networks ?? {} }));
  const node = (await load("tasks/node.mjs")).default;
  const defaults = { hostname: "127.0.0.1", port: 0, chainId: -1, home: "", minimumGasPrices: "", profile: "", state: "", loadState: "", dumpState: "", stateInterval: "", forkBlockNumber: -1, forkRest: "", quiet: false, verbose: false };
  await node({ ...defaults, ...args }, { config, versions: { hardhat: "3.0.0" }, globalOptions: {} });
} catch (err) {
  console.error(`${err.constructor.name}: ${err.message}`);
  process.exit(1);
}
