/** anvil_*: the methods of Anvil's that tools use on any dev node; here, saved state in Anvil's format. */
import type { RpcDeps } from "../deps";
import { savedStateMethods } from "./saved-state";

export function anvilMethods(deps: RpcDeps) {
  return savedStateMethods(deps, "anvil");
}
