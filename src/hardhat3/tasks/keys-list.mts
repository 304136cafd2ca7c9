/** `hardhat keys:list --home DIR` (src/host/helpers/key-tasks.ts). */
import keyTasksModule from "../../host/helpers/key-tasks.js";
import { keyTaskFailure } from "./keys-new.mjs";

export default async function keysList(args: { home: string }): Promise<void> {
  await keyTasksModule.keysList(args.home).catch(keyTaskFailure);
}
