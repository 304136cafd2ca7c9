/**
 * This plugin's errors as Hardhat 2 shows a plugin's (`Error HH…: hardhat-epochs: …`, no stack
 * trace): what the layers below throw as a UserError (src/utils/user-error.ts) is translated here,
 * in one place.
 */
import { HardhatPluginError } from "hardhat/plugins";
import { isUserError } from "../utils/user-error";

export const PLUGIN_NAME = "hardhat-epochs";

export function pluginError(message: string, parent?: Error): HardhatPluginError {
  return new HardhatPluginError(PLUGIN_NAME, message, parent);
}

/** A UserError → the plugin's error; anything else as it is (a bug keeps its stack trace). */
function asPluginError(err: unknown): unknown {
  return isUserError(err) ? pluginError(err.message, err) : err;
}

/** Runs `f` (sync or async) with its UserErrors translated. */
export function withPluginErrors<T>(f: () => T): T {
  try {
    const out = f();
    if (out instanceof Promise) {
      return out.catch((err: unknown) => {
        throw asPluginError(err);
      }) as T;
    }
    return out;
  } catch (err) {
    throw asPluginError(err);
  }
}
