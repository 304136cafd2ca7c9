/**
 * Config hooks: with the plugin listed, the `default` network (what `network.create()` gives without
 * a name) is the in-process epochs chain unless the user declared `default` themselves (its settings:
 * `epochs.network`, src/host/settings/network-settings.ts); Solidity
 * compiles with the npm `solc` package when it is the version asked for (no compiler download), and
 * builds the package's Solidity interfaces (src/hardhat3/shared/package-interfaces.mts); the
 * `epochs` section is resolved as on Hardhat 2 (src/host/settings/epochs-config.ts).
 */
import { createRequire } from "node:module";
import path from "node:path";
import epochsConfigModule from "../../host/settings/epochs-config.js";
import networkSettingsModule from "../../host/settings/network-settings.js";
import chainDefaultsModule from "../../host/settings/chain-defaults.js";
import { IN_PROCESS_URL } from "../shared/in-process-url.mjs";
import type { HardhatConfig, HardhatUserConfig } from "../shared/hardhat3-api.mjs";
import { pluginError } from "../shared/plugin-error.mjs";
import { withPackageInterfaces } from "../shared/package-interfaces.mjs";
import { followProjectNode, noteUserLocalhost, withProjectNodeToken } from "../shared/localhost-follow.mjs";

export default async () => ({
  async extendUserConfig(config: HardhatUserConfig, next: (c: HardhatUserConfig) => Promise<HardhatUserConfig>): Promise<HardhatUserConfig> {
    noteUserLocalhost(config);
    const networks = { ...config.networks };
    // before next(): Hardhat's own handler fills `default` (EDR) only when it is still missing
    const chainId = typeof config.epochs?.network?.chainId === "number" ? config.epochs.network.chainId : chainDefaultsModule.DEFAULT_CHAIN_ID;
    networks.default ??= { type: "http", url: IN_PROCESS_URL, chainId };
    // the package's interfaces get artifacts, as on Hardhat 2 (src/hardhat3/shared/package-interfaces.mts)
    const solidity = config.solidity === undefined ? undefined : withPackageInterfaces(withNpmSolc(config.solidity));
    return next({ ...config, networks, solidity: solidity as HardhatUserConfig["solidity"] });
  },

  async resolveUserConfig(userConfig: HardhatUserConfig, resolveConfigurationVariable: unknown, next: (u: HardhatUserConfig, r: unknown) => Promise<HardhatConfig>): Promise<HardhatConfig> {
    // `localhost` at this project's running node when the user gave it no URL (src/hardhat3/shared/localhost-follow.mts)
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

/**
 * The WebAssembly compiler of an npm `solc` package of `version`: the project's own (a team offline
 * installs the version its config asks for: `npm install --save-dev solc@0.8.34`), else the one this
 * plugin depends on (0.8.30). Undefined when neither is that version: Hardhat downloads it.
 */
function npmSolcFor(version: string): string | undefined {
  for (const from of [createRequire(path.join(process.cwd(), "package.json")), ownRequire]) {
    try {
      const pkg = from("solc/package.json") as { version: string };
      if (pkg.version === version) return path.join(path.dirname(from.resolve("solc/package.json")), "soljson.js");
    } catch {
      // no solc there
    }
  }
  return undefined;
}

type SolcUserConfig = { version: string; path?: string; [key: string]: unknown };

/**
 * Adds `path` (Hardhat 3's local compiler) to every compiler entry whose version an npm solc has
 * and that has none: the string form, `{ version }`, `compilers: [...]` and `profiles`.
 */
export function withNpmSolc(solidity: unknown, solcFor: (version: string) => string | undefined = npmSolcFor): unknown {
  if (solidity === undefined) return solidity;
  const one = (c: unknown): unknown => {
    if (typeof c === "string") {
      const local = solcFor(c);
      return local === undefined ? c : { version: c, path: local };
    }
    if (c !== null && typeof c === "object" && typeof (c as SolcUserConfig).version === "string" && (c as SolcUserConfig).path === undefined) {
      const local = solcFor((c as SolcUserConfig).version);
      return local === undefined ? c : { ...(c as object), path: local };
    }
    return c;
  };
  if (Array.isArray(solidity)) return solidity.map(one);
  if (solidity === null || typeof solidity !== "object") return one(solidity);
  const s = solidity as { compilers?: unknown[]; profiles?: Record<string, unknown>; version?: string };
  if (s.profiles !== undefined) return { ...s, profiles: Object.fromEntries(Object.entries(s.profiles).map(([k, p]) => [k, withNpmSolc(p, solcFor)])) };
  if (s.compilers !== undefined) return { ...s, compilers: s.compilers.map(one) };
  return one(s);
}
