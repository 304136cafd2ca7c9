/**
 * The package's Solidity interfaces (IEpochs, IEpochHooks and the Cosmos precompiles' under
 * contracts/precompiles/) built in every Hardhat 3 project that lists the plugin, so
 * `ethers.getContractAt("IStaking", …)` finds their artifacts as on Hardhat 2. Hardhat 3 writes
 * artifacts for a project's own files and for the npm files named in `solidity.npmFilesToBuild` only;
 * the plugin adds its files there (after the user's own), each only when one of the project's
 * compilers satisfies its pragma, so a project on an older compiler builds as before.
 */
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import path from "node:path";
import semver from "semver";

const PACKAGE = "hardhat-epochs";
/** The package's root, from dist/src/hardhat3/ (this file's place in the package). */
const ROOT = fileURLToPath(new URL("../../../../", import.meta.url));

/** Each interface file as an npm source name, with its pragma's version range. */
function packageInterfaces(root = ROOT): Array<{ sourceName: string; pragma: string }> {
  const out: Array<{ sourceName: string; pragma: string }> = [];
  for (const dir of ["contracts", path.join("contracts", "precompiles")]) {
    let files: string[];
    try {
      files = readdirSync(path.join(root, dir))
        .filter((f) => f.endsWith(".sol"))
        .sort();
    } catch {
      continue;
    }
    for (const f of files) {
      const pragma = /pragma solidity ([^;]+);/.exec(readFileSync(path.join(root, dir, f), "utf8"))?.[1].trim() ?? "";
      out.push({ sourceName: `${PACKAGE}/${dir.split(path.sep).join("/")}/${f}`, pragma });
    }
  }
  return out;
}

/** Whether solc `version` takes `pragma` (a semver range, as Hardhat reads it); a version or a pragma that is none is left to Hardhat. */
function satisfies(version: string, pragma: string): boolean {
  if (semver.valid(version.trim()) === null || semver.validRange(pragma.trim()) === null) return true;
  return semver.satisfies(version.trim(), pragma.trim());
}

/** Every compiler version a Hardhat 3 `solidity` user config names (string, list, `{version}`, `{compilers}`, `{profiles}`). */
function configuredVersions(solidity: unknown): string[] {
  if (typeof solidity === "string") return [solidity];
  if (Array.isArray(solidity)) return solidity.flatMap(configuredVersions);
  if (solidity === null || typeof solidity !== "object") return [];
  const s = solidity as { version?: unknown; compilers?: unknown[]; profiles?: Record<string, unknown> };
  if (s.profiles !== undefined) return Object.values(s.profiles).flatMap(configuredVersions);
  if (s.compilers !== undefined) return s.compilers.flatMap(configuredVersions);
  return typeof s.version === "string" ? [s.version] : [];
}

/** `solidity` with the package's interfaces its compilers can build added to `npmFilesToBuild`. */
export function withPackageInterfaces(solidity: unknown, files = packageInterfaces()): unknown {
  const versions = configuredVersions(solidity);
  const wanted = files.filter((f) => versions.some((v) => satisfies(v, f.pragma))).map((f) => f.sourceName);
  if (wanted.length === 0) return solidity;
  // the string and list forms have no room for the list: their object forms do
  const base: Record<string, unknown> =
    typeof solidity === "string"
      ? { version: solidity }
      : Array.isArray(solidity)
        ? { compilers: solidity.map((v: unknown) => (typeof v === "string" ? { version: v } : v)) }
        : { ...(solidity as object) };
  const own = Array.isArray(base.npmFilesToBuild) ? (base.npmFilesToBuild as string[]) : [];
  return { ...base, npmFilesToBuild: [...own, ...wanted.filter((w) => !own.includes(w))] };
}
