/**
 * Evmos's node flags on Hardhat 3's command line. Its parser takes `--kebab-case` options only, so a
 * dotted flag such as `json-rpc.ws-address` becomes `--json-rpc-ws-address` (option jsonRpcWsAddress).
 */
import appConfigKeys from "../../host/settings/app-config-keys.js";

/** `json-rpc.ws-address` → `jsonRpcWsAddress`. */
function flagOptionName(flag: string): string {
  return flag.replace(/[.-]([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

/**
 * The Evmos flags the user gave (keyed as Evmos spells them) out of the task's arguments. A boolean
 * option always has a value on Hardhat 3 (its default when not given): only a value other than the
 * default counts as given, so app.toml decides otherwise.
 */
export function evmosFlagsOf(args: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const { flag, defaultValue } of appConfigKeys.JSON_RPC_FLAGS) {
    const v = args[flagOptionName(flag)];
    if (typeof v === "string") out[flag] = v;
    else if (typeof v === "boolean" && v !== defaultValue) out[flag] = String(v);
  }
  return out;
}

/** Evmos's json-rpc flags as Hardhat 3 options: booleans as BOOLEAN (`--json-rpc-log true`) with the node's default, the rest as strings. */
export function jsonRpcOptions(): Array<{ name: string; description: string; type: string; defaultValue: unknown }> {
  return appConfigKeys.JSON_RPC_FLAGS.map(({ flag, bool, description, defaultValue }) =>
    bool && defaultValue !== undefined
      ? { name: flagOptionName(flag), description: `${description} (true or false)`, type: "BOOLEAN", defaultValue }
      : { name: flagOptionName(flag), description, type: "STRING_WITHOUT_DEFAULT", defaultValue: undefined },
  );
}
