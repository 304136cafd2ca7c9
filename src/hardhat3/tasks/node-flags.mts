/**
 * Evmos's node flags on Hardhat 3's command line. Its parser takes `--kebab-case` options only, so a
 * dotted flag such as `json-rpc.ws-address` becomes `--json-rpc-ws-address` (option jsonRpcWsAddress).
 */
import appConfigModule from "../../host/app-config.js";

/** `json-rpc.ws-address` → `jsonRpcWsAddress`. */
export function flagOptionName(flag: string): string {
  return flag.replace(/[.-]([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

/** The Evmos flags the user gave (keyed as Evmos spells them) out of the task's arguments. */
export function evmosFlagsOf(args: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const { flag } of appConfigModule.JSON_RPC_FLAGS) {
    const v = args[flagOptionName(flag)];
    if (typeof v === "string") out[flag] = v;
  }
  return out;
}
