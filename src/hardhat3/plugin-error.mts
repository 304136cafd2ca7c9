/**
 * Errors of this plugin as Hardhat 3 shows a plugin's (`Error in plugin hardhat-epochs: …`, no
 * "unexpected error" banner): its HardhatPluginError, from the user's Hardhat (a variable specifier,
 * as in index.mts: this repository's own `hardhat` is 2.x).
 */
const HARDHAT_PLUGINS = "hardhat/plugins";
const { HardhatPluginError } = (await import(HARDHAT_PLUGINS)) as { HardhatPluginError: new (pluginId: string, message: string, parent?: Error) => Error };

export function pluginError(message: string, parent?: Error): Error {
  return new HardhatPluginError("hardhat-epochs", message, parent);
}
