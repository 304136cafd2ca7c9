/**
 * A home keeps the names of the deployed code its node identified (DIR/contract-names.json: code
 * keccak256 → contract name), so that after a restart the node's log, the epochs page and
 * `epochs_hookContracts` still name a contract deployed before the project recompiled it with other
 * code — Hardhat deletes the build-info that named it, and no compilation matches the deployed code
 * any more. Written when a name is learned (once per distinct deployed code); a file that cannot be
 * read is started over.
 */
import { readFileSync, renameSync, writeFileSync } from "node:fs";
import type { ContractRegistry } from "../../solidity/registry";

export function keepContractNames(file: string, contracts: ContractRegistry): void {
  const names = new Map<string, string>();
  try {
    const saved = JSON.parse(readFileSync(file, "utf8")) as unknown;
    if (typeof saved === "object" && saved !== null && !Array.isArray(saved)) {
      for (const [hash, name] of Object.entries(saved)) if (/^0x[0-9a-f]{64}$/.test(hash) && typeof name === "string") names.set(hash, name);
    }
  } catch {
    // none yet, or not JSON: the names are learned again
  }
  contracts.rememberNames(names, (hash, name) => {
    names.set(hash, name);
    try {
      writeFileSync(`${file}.tmp`, `${JSON.stringify(Object.fromEntries(names), null, 1)}\n`);
      renameSync(`${file}.tmp`, file);
    } catch {
      // a read-only home: the names stay in memory
    }
  });
}
