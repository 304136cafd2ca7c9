/**
 * The handlers behind hardhat_dumpState / hardhat_loadState and their Anvil names (src/chain/dev/state-dump.ts
 * has the format): a dump is the hex of gzipped JSON, as Anvil gives and takes it.
 */
import type { RpcDeps } from "../deps";
import { method } from "../method";
import { string } from "../params";

/** `<ns>_dumpState` and `<ns>_loadState` for a namespace (hardhat, anvil). */
export function savedStateMethods({ node }: RpcDeps, ns: "hardhat" | "anvil") {
  return [
    method({
      name: `${ns}_dumpState`,
      // the whole state in memory, as debug_dumpBlock: the token
      access: "private",
      params: [],
      doc: "The state at the head (accounts, code, storage, the epochs module's records) as Anvil's dump: hex of gzipped JSON. Loads with loadState here or in Anvil.",
      handler: () => node.exportState(),
    }),
    method({
      name: `${ns}_loadState`,
      access: "dev",
      params: [string],
      doc: "Loads a dump (hex of gzipped or plain JSON, Anvil's or ours) at the head: accounts replaced, module records replaced, chain time moved up to the dump's. Refused whole when any value is bad.",
      handler: async ([dump]) => {
        // a bad dump is refused whole: -32602 with what is wrong (StateDumpError, src/chain/dev/state-dump.ts)
        await node.loadState(dump);
        return true;
      },
    }),
  ];
}
