/** This package's version, from its package.json (found by walking up: two folders above the source, three above dist/). */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";

let version: string | undefined;

function pluginVersion(): string {
  if (version !== undefined) return version;
  for (let dir = __dirname; ; dir = path.dirname(dir)) {
    const file = path.join(dir, "package.json");
    if (existsSync(file)) {
      const pkg = JSON.parse(readFileSync(file, "utf8")) as { name?: string; version?: string };
      if (pkg.name === "hardhat-epochs" && pkg.version !== undefined) return (version = pkg.version);
    }
    if (path.dirname(dir) === dir) return (version = "0.0.0");
  }
}

/** `HardhatNetwork/<hardhat>/hardhat-epochs/<ours>`: the network helpers accept only a client whose version starts with "HardhatNetwork". */
export function clientVersion(hardhatVersion: string): string {
  return `HardhatNetwork/${hardhatVersion}/hardhat-epochs/${pluginVersion()}`;
}
