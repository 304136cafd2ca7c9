// The one piece of Hardhat 3 the plugin imports at run time, `hardhat/plugins`'s HardhatPluginError,
// stood in for by a class of the same name and constructor (this repository's `hardhat` is 2.x,
// which has no ESM entry for it). Imported first by the harness scripts of test/hardhat3/.
import { register } from "node:module";

const PLUGINS = `export class HardhatPluginError extends Error {
  constructor(pluginId, message, parent) { super(message, { cause: parent }); this.name = "HardhatPluginError"; this.pluginId = pluginId; }
}`;
const HOOKS = `export async function resolve(specifier, context, next) {
  if (specifier === "hardhat/plugins") return { url: "data:text/javascript," + encodeURIComponent(${JSON.stringify(PLUGINS)}), shortCircuit: true };
  return next(specifier, context);
}`;
register(`data:text/javascript,${encodeURIComponent(HOOKS)}`);
