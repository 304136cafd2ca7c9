// Runs Hardhat 3's `node` task of this repository's dist/ the way Hardhat 3 calls it, without a
// Hardhat 3 install: the plugin's config hooks resolve the user's config, then the task's action
// gets Hardhat 3's argument shape ("" or -1 for an option not given). Input: JSON in HH3_NODE
// ({ dist, userConfig, paths, args }). A failure prints the error's class and message and exits 1.
// The one piece of Hardhat 3 the task imports, `hardhat/plugins`'s HardhatPluginError, is stood in
// for by a class of the same name and constructor (this repository's `hardhat` is 2.x, which has
// no ESM entry for it).
import { register } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";

const PLUGINS = `export class HardhatPluginError extends Error {
  constructor(pluginId, message, parent) { super(message, { cause: parent }); this.name = "HardhatPluginError"; this.pluginId = pluginId; }
}`;
const HOOKS = `export async function resolve(specifier, context, next) {
  if (specifier === "hardhat/plugins") return { url: "data:text/javascript," + encodeURIComponent(${JSON.stringify(PLUGINS)}), shortCircuit: true };
  return next(specifier, context);
}`;
register(`data:text/javascript,${encodeURIComponent(HOOKS)}`);

const { dist, userConfig, paths, args } = JSON.parse(process.env.HH3_NODE);
const load = (file) => import(pathToFileURL(path.join(dist, "src/hardhat3", file)).href);
try {
  const hooks = await (await load("hooks/config.mjs")).default();
  const extended = await hooks.extendUserConfig(userConfig, async (c) => c);
  const config = await hooks.resolveUserConfig(extended, undefined, async () => ({ paths }));
  const node = (await load("tasks/node.mjs")).default;
  const defaults = { hostname: "127.0.0.1", port: 0, chainId: -1, home: "", minimumGasPrices: "", profile: "", state: "", loadState: "", dumpState: "", stateInterval: "", forkBlockNumber: -1, forkRest: "", quiet: false, verbose: false };
  await node({ ...defaults, ...args }, { config, versions: { hardhat: "3.0.0" }, globalOptions: {} });
} catch (err) {
  console.error(`${err.constructor.name}: ${err.message}`);
  process.exit(1);
}
