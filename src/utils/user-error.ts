/**
 * Errors the user can act on (a flag, a file, a home directory, a remote that cannot be read): each
 * Hardhat host shows one as its own plugin error, the message alone, without a stack trace
 * (src/hardhat/plugin-error.ts, src/hardhat3/shared/plugin-error.mts). The layers below the hosts throw them with
 * no Hardhat import.
 */

// A brand rather than `instanceof`: Hardhat 2's test helpers load the plugin again for each fresh
// environment, and an error made by one copy must still be recognised by another.
const USER_ERROR = Symbol.for("hardhat-epochs: user error");

export class UserError extends Error {
  readonly [USER_ERROR] = true;
}

export function isUserError(err: unknown): err is Error {
  return err instanceof Error && (err as { [USER_ERROR]?: unknown })[USER_ERROR] === true;
}

/** A problem in the `epochs` section of a Hardhat config (its parsers: src/host/settings/epochs-config.ts, src/host/settings/network-settings.ts). */
export class EpochsConfigError extends UserError {}
