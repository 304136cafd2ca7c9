/**
 * Config hooks: with the plugin listed, the `default` network (what `network.create()` gives without
 * a name) is the in-process epochs chain unless the user declared `default` themselves (its settings:
 * `epochs.network`, src/host/settings/network-settings.ts); Solidity
 * compiles with the npm `solc` package when it is the version asked for (no compiler download), and
 * builds the package's Solidity interfaces (src/hardhat3/package-interfaces.mts); the
 * `epochs` section is resolved as on Hardhat 2 (src/host/settings/epochs-config.ts).
 */
import { createRequire } from "node:module";
import path from "node:path";
import epochsConfigModule from "../../host/settings/epochs-config.js";
import networkSettingsModule from "../../host/settings/network-settings.js";
import chainDefaultsModule from "../../host/settings/chain-defaults.js";
import { IN_PROCESS_URL } from "../in-process-url.mjs";
import type { HardhatConfig, HardhatUserConfig } from "../hardhat3-api.mjs";
import { pluginError } from "../plugin-error.mjs";
import { withPackageInterfaces } from "../package-interfaces.mjs";
import { followProjectNode, noteUserLocalhost, withProjectNodeToken } from "../localhost-follow.mjs";

export default async () => ({
  async extendUserConfig(config: HardhatUserConfig, next: (c: HardhatUserConfig) => Promise<HardhatUserConfig>): Promise<HardhatUserConfig> {
    noteUserLocalhost(config);
    const networks = { ...config.networks };
    // before next(): Hardhat's own handler fills `default` (EDR) only when it is still missing
    const chainId = typeof config.epochs?.network?.chainId === "number" ? config.epochs.network.chainId : chainDefaultsModule.DEFAULT_CHAIN_ID;
    networks.default ??= { type: "http", url: IN_PROCESS_URL, chainId };
    // the package's interfaces get artifacts, as on Hardhat 2 (src/hardhat3/package-interfaces.mts)
    const solidity = config.solidity === undefined ? undefined : withPackageInterfaces(withNpmSolc(config.solidity));
    return next({ ...config, networks, solidity: solidity as HardhatUserConfig["solidity"] });
  },

  async resolveUserConfig(
    userConfig: HardhatUserConfig,
    resolveConfigurationVariable: unknown,
    next: (u: HardhatUserConfig, r: unknown) => Promise<HardhatConfig>,
  ): Promise<HardhatConfig> {
    // `localhost` at this project's running node when the user gave it no URL (src/hardhat3/localhost-follow.mts)
    // and requests to that node carry its bearer token (with or without --home)
    const resolved = withProjectNodeToken(followProjectNode(await next(userConfig, resolveConfigurationVariable), resolveConfigurationVariable), userConfig);
    try {
      const epochs = epochsConfigModule.resolveEpochsConfig(userConfig.epochs);
      networkSettingsModule.parseNetworkSettings(epochs.network); // checked here, used when a connection starts its chain
      return { ...resolved, epochs };
    } catch (err) {
      throw pluginError((err as Error).message, err as Error);
    }
  },
});

const ownRequire = createRequire(import.meta.url);

/** The npm `solc` package this plugin depends on: its version and its WebAssembly compiler. */
function npmSolc(): { version: string; path: string } | undefined {
  try {
    const pkg = ownRequire("solc/package.json") as { version: string };
    return { version: pkg.version, path: path.join(path.dirname(ownRequire.resolve("solc/package.json")), "soljson.js") };
  } catch {
    return undefined;
  }
}

type SolcUserConfig = { version: string; path?: string; [key: string]: unknown };

/**
 * Adds `path` (Hardhat 3's local compiler) to every compiler entry that asks for the npm solc's
 * version and has none: the string form, `{ version }`, `compilers: [...]` and `profiles`.
 */
export function withNpmSolc(solidity: unknown, solc = npmSolc()): unknown {
  if (solc === undefined || solidity === undefined) return solidity;
  const one = (c: unknown): unknown => {
    if (typeof c === "string") return c === solc.version ? { version: c, path: solc.path } : c;
    if (c !== null && typeof c === "object" && (c as SolcUserConfig).version === solc.version && (c as SolcUserConfig).path === undefined) return { ...(c as object), path: solc.path };
    return c;
  };
  if (Array.isArray(solidity)) return solidity.map(one);
  if (solidity === null || typeof solidity !== "object") return one(solidity);
  const s = solidity as { compilers?: unknown[]; profiles?: Record<string, unknown>; version?: string };
  if (s.profiles !== undefined) return { ...s, profiles: Object.fromEntries(Object.entries(s.profiles).map(([k, p]) => [k, withNpmSolc(p, solc)])) };
  if (s.compilers !== undefined) return { ...s, compilers: s.compilers.map(one) };
  return one(s);
}
