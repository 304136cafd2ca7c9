/** The key tasks' options as Hardhat 3 gives them ("" for an option not given) → src/host/helpers/key-tasks.ts's arguments. */
import type { KeyArgs } from "../../host/helpers/key-tasks.js";

export interface KeyTaskArgs {
  home: string;
  passphraseFile: string;
  lightKdf: boolean;
}

export function keyArgs(args: KeyTaskArgs): KeyArgs {
  return { home: args.home, passphraseFile: args.passphraseFile === "" ? undefined : args.passphraseFile, lightKdf: args.lightKdf };
}
