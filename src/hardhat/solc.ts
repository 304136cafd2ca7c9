/**
 * Compilers: a project compiles as Hardhat compiles it (its solc download, native where there is
 * one). Only when that download fails (a machine without internet, HH502) does the build fall back
 * to an npm `solc` package's soljson.js of the version asked for — the one this plugin depends on, or
 * another already installed (the project's own, or the 0.8.26 Hardhat 2 brings for itself) — saying
 * so once. `HARDHAT_EPOCHS_SOLC=npm` skips the download and compiles with the npm solc at once (this
 * repository's own runs: they download nothing).
 */
import path from "node:path";
import { subtask } from "hardhat/config";
import { HardhatPluginError } from "hardhat/plugins";
import type { SolcBuild } from "hardhat/types/builtin-tasks";
import { TASK_COMPILE_SOLIDITY_GET_SOLC_BUILD } from "./task-names";
import { PLUGIN_NAME } from "./chain-config";
import { errorText } from "../utils/error-text";

/** The solc version the installed `solc` package ships (what `solidity.version` must name). */
function bundledSolcVersion(): string {
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
function installedSolc(version: string, from: string[]): string | undefined {
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

/** The environment variable that makes every compile use the npm solc, without trying Hardhat's download. */
const SOLC_ENV = "HARDHAT_EPOCHS_SOLC";

/** Versions whose download failed and which compile with the npm solc in this process (told once each). */
const fellBack = new Set<string>();

subtask(TASK_COMPILE_SOLIDITY_GET_SOLC_BUILD).setAction(async (args: { quiet: boolean; solcVersion: string }, hre, runSuper) => {
  const { solcVersion } = args;
  const root = hre.config.paths.root;
  if (process.env[SOLC_ENV] === "npm" || fellBack.has(solcVersion)) return bundledSolcBuild(solcVersion, root);
  try {
    return (await runSuper(args)) as SolcBuild;
  } catch (err) {
    const why = errorText(err).split("\n")[0];
    let build: SolcBuild;
    try {
      build = await bundledSolcBuild(solcVersion, root);
    } catch {
      throw new HardhatPluginError(
        PLUGIN_NAME,
        `solc ${solcVersion} could not be downloaded (${why}), and no npm "solc" package of that version is installed to compile offline: ` +
          `install solc@${solcVersion}, or set solidity.version to "${bundledSolcVersion()}" (the npm solc this plugin brings).`,
        err instanceof Error ? err : undefined,
      );
    }
    fellBack.add(solcVersion);
    console.warn(`hardhat-epochs: solc ${solcVersion} could not be downloaded (${why}); compiling with the npm "solc" package instead (solc-js ${solcVersion}).`);
    return build;
  }
});
