/** `hardhat keys:import --home DIR [--key-file F] [--passphrase-file F] [--light-kdf]` (src/host/helpers/key-tasks.ts). */
import keyTasksModule from "../../host/helpers/key-tasks.js";
import { keyArgs, type KeyTaskArgs } from "./keys-args.mjs";
import { keyTaskFailure } from "./keys-new.mjs";

export default async function keysImport(args: KeyTaskArgs & { keyFile: string }): Promise<void> {
  await keyTasksModule.keysImport({ ...keyArgs(args), keyFile: args.keyFile === "" ? undefined : args.keyFile }).catch(keyTaskFailure);
}
