/** `hardhat keys:new --home DIR [--passphrase-file F] [--light-kdf]` (src/host/helpers/key-tasks.ts). */
import keyTasksModule from "../../host/helpers/key-tasks.js";
import { keyArgs, type KeyTaskArgs } from "./keys-args.mjs";
import { asPluginError } from "../shared/plugin-error.mjs";

export default async function keysNew(args: KeyTaskArgs): Promise<void> {
  await keyTasksModule.keysNew(keyArgs(args)).catch(keyTaskFailure);
}

export function keyTaskFailure(err: unknown): never {
  throw asPluginError(err);
}
