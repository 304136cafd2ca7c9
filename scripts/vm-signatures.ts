/**
 * Writes src/chain/testing/vm-signatures.json: every cheatcode forge-std's `Vm.sol` declares, by
 * selector, so a Solidity test that calls one this chain does not support is told its name
 * (src/chain/testing/cheats.ts). Run against a forge-std checkout:
 *   npx ts-node --transpile-only scripts/vm-signatures.ts <forge-std>/src/Vm.sol
 * Functions that take one of Vm.sol's structs are left out (their selectors need the struct's layout).
 */
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { id } from "ethers/hash";

const source = readFileSync(process.argv[2] ?? "Vm.sol", "utf8").replace(/\/\/.*$/gm, "");
const out: Record<string, string> = {};
const LOCATION = /\s+(memory|calldata|storage)\b/g;
for (const m of source.matchAll(/function\s+(\w+)\s*\(([^)]*)\)/g)) {
  const params = m[2].trim() === "" ? [] : m[2].split(",").map((p) => p.replace(LOCATION, "").trim().split(/\s+/)[0]);
  if (params.some((t) => /^[A-Z]/.test(t))) continue;
  const signature = `${m[1]}(${params.join(",")})`;
  out[id(signature).slice(0, 10)] = signature;
}
const sorted = Object.fromEntries(Object.entries(out).sort(([a], [b]) => a.localeCompare(b)));
writeFileSync(path.join(__dirname, "..", "src", "chain", "testing", "vm-signatures.json"), JSON.stringify(sorted, null, 1) + "\n");
console.log(`${Object.keys(sorted).length} cheatcode signatures written`);
