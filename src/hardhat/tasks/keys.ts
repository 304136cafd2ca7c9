/**
 * Hardhat 2's key tasks: `keys:new`, `keys:import`, `keys:list` on a node home's key store (what
 * they do: src/host/helpers/key-tasks.ts).
 */
import { task, types } from "hardhat/config";
import { type KeyArgs, keysImport, keysList, keysNew } from "../../host/helpers/key-tasks";
import { withPluginErrors } from "../plugin-error";

const TASK_KEYS_NEW = "keys:new";
const TASK_KEYS_IMPORT = "keys:import";
const TASK_KEYS_LIST = "keys:list";

const withKeyParams = <T extends ReturnType<typeof task>>(t: T): T =>
  t
    .addParam("home", "The node's home directory (as for `npx hardhat node --home`); keys go to DIR/keystore", undefined, types.string)
    .addOptionalParam("passphraseFile", "A file whose first line is the passphrase (else a prompt that does not echo)", undefined, types.inputFile)
    .addFlag("lightKdf", "Use geth's light scrypt parameters (fast to unlock, weaker): for throwaway keys") as T;

withKeyParams(task(TASK_KEYS_NEW, "Creates a key in the home's key store, encrypted with a passphrase")).setAction((args: KeyArgs) => withPluginErrors(() => keysNew(args)));

withKeyParams(task(TASK_KEYS_IMPORT, "Imports a hex private key into the home's key store, encrypted with a passphrase"))
  .addOptionalParam("keyFile", "A file holding the hex private key (geth's `account import` form); else a prompt that does not echo", undefined, types.inputFile)
  .setAction((args: KeyArgs & { keyFile?: string }) => withPluginErrors(() => keysImport(args)));

task(TASK_KEYS_LIST, "Lists the accounts of the home's key store")
  .addParam("home", "The node's home directory; its key store is DIR/keystore", undefined, types.string)
  .setAction(({ home }: { home: string }) => withPluginErrors(() => keysList(home)));
