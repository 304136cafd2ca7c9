/**
 * Offline compilation: Hardhat downloads solc builds from a host this machine may not reach (HH502),
 * so the solc build is an npm `solc` package's soljson.js: the one this plugin depends on, or another
 * already installed that has the version asked for (the project's own, or the 0.8.26 Hardhat 2
 * brings for itself).
 */
import path from "node:path";
import { subtask } from "hardhat/config";
import { HardhatPluginError } from "hardhat/plugins";
import type { SolcBuild } from "hardhat/types/builtin-tasks";
import { TASK_COMPILE_SOLIDITY_GET_SOLC_BUILD } from "./task-names";
import { PLUGIN_NAME } from "./chain-config";

/** The solc version the installed `solc` package ships (what `solidity.version` must name). */
export function bundledSolcVersion(): string {
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- read when something is compiled, not at plugin load
    return (require("solc/package.json") as { version: string }).version;
  } catch {
    throw new HardhatPluginError(
      PLUGIN_NAME,
      'this plugin compiles with the npm package "solc" (solc-js, offline), which is not installed. It is a dependency of hardhat-epochs; ' +
        "reinstall the plugin, or add it yourself: npm install --save-dev solc@0.8.30",
    );
  }
}

/** The folder of an installed `solc` package of `version`, resolved from each of `from` in turn. */
export function installedSolc(version: string, from: string[]): string | undefined {
  for (const dir of from) {
    try {
      const pkg = require.resolve("solc/package.json", { paths: [dir] });
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- a package.json found at run time
      if ((require(pkg) as { version: string }).version === version) return path.dirname(pkg);
    } catch {
      // no solc from there
    }
  }
  return undefined;
}

export async function bundledSolcBuild(solcVersion: string, projectRoot?: string): Promise<SolcBuild> {
  const version = bundledSolcVersion();
  // another installed solc-js of the version asked for: the project's, then Hardhat's own
  const other = solcVersion === version ? undefined : installedSolc(solcVersion, [...(projectRoot !== undefined ? [projectRoot] : []), path.dirname(require.resolve("hardhat/package.json"))]);
  if (other !== undefined) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded only when something is compiled with it
    const solc = require(other) as { version(): string };
    return { version: solcVersion, longVersion: solc.version().replace(/\.Emscripten\.clang$/, ""), compilerPath: path.join(other, "soljson.js"), isSolcJs: true };
  }
  if (solcVersion !== version) {
    throw new HardhatPluginError(
      PLUGIN_NAME,
      `solc ${solcVersion} is not available offline: this project compiles with the npm "solc" package, which is ${version}. ` +
        `Set solidity.version (and every entry of solidity.compilers / overrides) to "${version}", or install solc@${solcVersion}.`,
    );
  }
  // Loaded only when something is compiled: initialising the wasm takes a few hundred ms.
  const solc = (await import("solc")).default as { version(): string };
  // solc-js reports "0.8.30+commit.73712a01.Emscripten.clang"; Hardhat's long versions end at the commit.
  const longVersion = solc.version().replace(/\.Emscripten\.clang$/, "");
  return { version, longVersion, compilerPath: require.resolve("solc/soljson.js"), isSolcJs: true };
}

subtask(TASK_COMPILE_SOLIDITY_GET_SOLC_BUILD).setAction(async ({ solcVersion }: { quiet: boolean; solcVersion: string }, hre) =>
  bundledSolcBuild(solcVersion, hre.config.paths.root),
);
