/** `hardhat keys:list --home DIR` (src/host/key-tasks.ts). */
import keyTasksModule from "../../host/key-tasks.js";
import { keyTaskFailure } from "./keys-new.mjs";

export default async function keysList(args: { home: string }): Promise<void> {
  await keyTasksModule.keysList(args.home).catch(keyTaskFailure);
}
