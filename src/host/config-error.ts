/**
 * A problem in the `epochs` section of a Hardhat config (each host shows it as its own plugin error):
 * thrown by its parsers (src/host/epochs-config.ts, src/host/network-settings.ts), kept apart so
 * neither imports the other for it.
 */
import { UserError } from "../utils/user-error";

export class EpochsConfigError extends UserError {}
