/**
 * Errors of this plugin as Hardhat 3 shows a plugin's (`Error in plugin hardhat-epochs: …`, no
 * "unexpected error" banner): its HardhatPluginError, from the user's Hardhat (a variable specifier,
 * as in index.mts: this repository's own `hardhat` is 2.x).
 */
import userErrorModule from "../../utils/user-error.js";

const HARDHAT_PLUGINS = "hardhat/plugins";
const { HardhatPluginError } = (await import(HARDHAT_PLUGINS)) as { HardhatPluginError: new (pluginId: string, message: string, parent?: Error) => Error };

export function pluginError(message: string, parent?: Error): Error {
  return new HardhatPluginError("hardhat-epochs", message, parent);
}

/** A UserError of the layers below (src/utils/user-error.ts) → the plugin's error; anything else as it is. */
export function asPluginError(err: unknown): unknown {
  return userErrorModule.isUserError(err) ? pluginError(err.message, err) : err;
}

/** Runs `f` with its UserErrors translated. */
export async function withPluginErrors<T>(f: () => Promise<T>): Promise<T> {
  try {
    return await f();
  } catch (err) {
    throw asPluginError(err);
  }
}
