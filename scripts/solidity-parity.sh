#!/usr/bin/env bash
# Runs OpenZeppelin Contracts' forge-std tests under Hardhat 3's own Solidity test runner (EDR) and
# under this plugin's (the epochs chain, `epochs.solidityTests`), in one Hardhat 3 project, and prints
# each test's outcome on both, the counts and each runner's wall time (docs/solidity-tests.md).
# Not part of `npm test`: it needs the checkouts and the npm registry (Hardhat 3, solc 0.8.30, Node 22).
#
#   scripts/solidity-parity.sh <openzeppelin-contracts checkout> <forge-std checkout> [work dir]
#
#   OZ_REF      the OpenZeppelin tag (default v5.3.0)
#   FORGE_REF   the forge-std tag (default v1.9.7)
#   FUZZ_RUNS   fuzz runs per test (default 64)
#   SKIP_INSTALL=1  reuse the project's installed dependencies (the plugin is packed and installed anew)
set -euo pipefail

OZ=$(cd "${1:?usage: scripts/solidity-parity.sh <oz checkout> <forge-std checkout> [work dir]}" && pwd)
FORGE=$(cd "${2:?usage: scripts/solidity-parity.sh <oz checkout> <forge-std checkout> [work dir]}" && pwd)
WORK=${3:-/tmp/solidity-parity}
OZ_REF=${OZ_REF:-v5.3.0}
FORGE_REF=${FORGE_REF:-v1.9.7}
FUZZ_RUNS=${FUZZ_RUNS:-64}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$WORK"
WORK=$(cd "$WORK" && pwd)
P="$WORK/project"

# 1. The project: OpenZeppelin's contracts and its .t.sol tests that need forge-std only (those
#    importing halmos-cheatcodes or erc4626-tests left out), forge-std's src, OpenZeppelin's remapping.
rm -rf "$P/contracts" "$P/test" "$P/lib" "$P/artifacts" "$P/cache"
mkdir -p "$P/lib/forge-std"
git -C "$OZ" archive "$OZ_REF" contracts | tar -x -C "$P"
TESTS=$(git -C "$OZ" ls-tree -r --name-only "$OZ_REF" test | grep '\.t\.sol$' | while read -r f; do
  git -C "$OZ" show "$OZ_REF:$f" | grep -qE 'halmos-cheatcodes|erc4626-tests' || echo "$f"
done)
for f in $TESTS; do mkdir -p "$P/$(dirname "$f")" && git -C "$OZ" show "$OZ_REF:$f" >"$P/$f"; done
git -C "$FORGE" archive "$FORGE_REF" src | tar -x -C "$P/lib/forge-std"
printf '@openzeppelin/contracts/=contracts/\nforge-std/=lib/forge-std/src/\n' >"$P/remappings.txt"
echo "$(echo "$TESTS" | wc -l) test files: $(echo $TESTS)"

cat >"$P/hardhat.config.ts" <<CONFIG
import { createRequire } from "node:module";
import { defineConfig } from "hardhat/config";
import hardhatEpochs from "hardhat-epochs";
const require = createRequire(import.meta.url);
export default defineConfig({
  plugins: [hardhatEpochs],
  solidity: {
    version: "0.8.30",
    path: require.resolve("solc/soljson.js"),
    settings: { evmVersion: "cancun", optimizer: { enabled: true, runs: 200 } },
  },
  test: { solidity: { fuzz: { runs: ${FUZZ_RUNS} } } },
  epochs: { solidityTests: process.env.EPOCHS_SOLIDITY_TESTS === "1" },
});
CONFIG

# 2. Hardhat 3.18, solc 0.8.30 and this plugin as users get it, under Node 22 from the registry.
(cd "$ROOT" && npm pack --pack-destination "$WORK" >/dev/null)
TARBALL=$(ls -t "$WORK"/hardhat-epochs-*.tgz | head -1)
cat >"$P/package.json" <<PKG
{ "name": "solidity-parity", "private": true, "type": "module",
  "devDependencies": { "hardhat": "3.18.0", "solc": "0.8.30", "hardhat-epochs": "file:$TARBALL" } }
PKG
# this machine's npm (Node 22's bundled npm 10 drops EDR's platform package on reinstalls: npm/cli#4828)
NPM=$(command -v npm)
NODE22=$(npx -y -p node@22 -c 'dirname "$(command -v node)"' | tail -1)
export PATH="$NODE22:$PATH" HARDHAT_DISABLE_TELEMETRY_PROMPT=true DO_NOT_TRACK=1
if [ "${SKIP_INSTALL:-}" != 1 ] || [ ! -d "$P/node_modules/hardhat" ]; then
  (cd "$P" && "$NPM" install --no-audit --no-fund --prefer-offline >/dev/null)
else
  rm -rf "$P/node_modules/hardhat-epochs" && mkdir -p "$P/node_modules/hardhat-epochs"
  tar -xzf "$TARBALL" -C "$P/node_modules/hardhat-epochs" --strip-components=1
fi

# 3. Build once, then each runner on the same artifacts.
(cd "$P" && ./node_modules/.bin/hardhat build >"$WORK/build.txt" 2>&1) || { tail -30 "$WORK/build.txt"; exit 1; }
run() {
  local start end
  start=$(date +%s.%N)
  (cd "$P" && EPOCHS_SOLIDITY_TESTS=$1 ./node_modules/.bin/hardhat test solidity --no-compile >"$WORK/$2.txt" 2>&1) || true
  end=$(date +%s.%N)
  echo "$end - $start" | bc
}
EDR_S=$(run 0 edr)
OURS_S=$(run 1 epochs)

# 4. The table: each test's outcome on both runners.
node - "$WORK/edr.txt" "$WORK/epochs.txt" "$EDR_S" "$OURS_S" <<'NODE'
const fs = require("fs");
const [edrFile, oursFile, edrS, oursS] = process.argv.slice(2);
const outcomes = (file) => {
  const map = new Map();
  let suite;
  for (const line of fs.readFileSync(file, "utf8").replace(/\x1b\[[0-9;]*m/g, "").split("\n")) {
    // the counts end the suites (the failures' details follow them)
    if (/^\s+\d+ passing/.test(line)) break;
    const head = /^\s*(\S+\.sol):(\w+)$/.exec(line);
    if (head) { suite = `${head[1]}:${head[2]}`; continue; }
    const pass = /^\s+✔ (\S+)/.exec(line);
    const fail = /^\s+\d+\) (\S+)$/.exec(line);
    if (suite && pass) map.set(`${suite} ${pass[1]}`, "pass");
    else if (suite && fail) map.set(`${suite} ${fail[1]}`, "FAIL");
  }
  return map;
};
const edr = outcomes(edrFile);
const ours = outcomes(oursFile);
const names = [...new Set([...edr.keys(), ...ours.keys()])].sort();
let same = 0;
const width = Math.max(...names.map((n) => n.length));
console.log(`${"test".padEnd(width)}  hardhat-3  epochs`);
for (const n of names) {
  const a = edr.get(n) ?? "-";
  const b = ours.get(n) ?? "-";
  if (a === b) same++;
  console.log(`${n.padEnd(width)}  ${a.padEnd(9)}  ${b}${a === b ? "" : "   <- differs"}`);
}
const count = (m, o) => [...m.values()].filter((v) => v === o).length;
console.log(`\nHardhat 3 (EDR): ${count(edr, "pass")} of ${edr.size} passing, ${edrS} s`);
console.log(`epochs chain:    ${count(ours, "pass")} of ${ours.size} passing, ${oursS} s (${(Number(oursS) / Number(edrS)).toFixed(2)}x Hardhat 3's time)`);
console.log(`same outcome: ${same} of ${names.length}`);
process.exitCode = same === names.length ? 0 : 1;
NODE
