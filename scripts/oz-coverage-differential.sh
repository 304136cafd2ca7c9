#!/usr/bin/env bash
# Coverage differential on Hardhat 2: a few test folders of OpenZeppelin Contracts (tag v5.3.0, its own
# Hardhat 2 config and solidity-coverage settings) under `npx hardhat coverage` twice — stock Hardhat, then
# with this plugin loaded — and a table of the statement, branch, function and line percentages of every
# file in both runs. See docs/coverage.md. Not part of `npm test`: it needs a checkout of
# github.com/OpenZeppelin/openzeppelin-contracts (with its tags) and the npm registry.
#
#   scripts/oz-coverage-differential.sh <openzeppelin-contracts checkout> [work dir]
#
#   OZ_REF        git ref to export (default v5.3.0)
#   TESTS         test folders, space-separated (default "test/access test/token/ERC20"): their *.test.js
#   MODES         which runs (default "stock plugin"); "stock-test" and "plugin-test" run the same tests
#                 without coverage (`npx hardhat test`), for the time a coverage run costs
#   SKIP_INSTALL  1 = reuse the work dir's node_modules and packed plugin
#   PROFILE       1 = with the *-test modes, time every JSON-RPC request the tests send (wall time, by
#                 method, in the order the provider answers them) and print the table after the tests
set -euo pipefail

CHECKOUT=${1:?usage: scripts/oz-coverage-differential.sh <openzeppelin-contracts checkout> [work dir]}
CHECKOUT=$(cd "$CHECKOUT" && pwd)
WORK=${2:-/tmp/oz-coverage-differential}
REF=${OZ_REF:-v5.3.0}
TESTS=${TESTS:-"test/access test/token/ERC20"}
MODES=${MODES:-"stock plugin"}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
SOLC_VERSION=$(cd "$ROOT" && node -p 'require("solc/package.json").version')

mkdir -p "$WORK"
WORK=$(cd "$WORK" && pwd)

# 1. The library at its tag: sources, tests, its Hardhat config and tasks, its coverage settings.
rm -rf "$WORK/contracts" "$WORK/test" "$WORK/hardhat" "$WORK/scripts"
git -C "$CHECKOUT" archive "$REF" contracts test hardhat scripts hardhat.config.js remappings.txt .solcover.js | tar -x -C "$WORK"

# 2. Its dev dependencies for these runs (its Hardhat 2 plugins), and this plugin as users get it.
if [ "${SKIP_INSTALL:-}" != 1 ]; then
  (cd "$ROOT" && npm pack --pack-destination "$WORK" --silent >/dev/null)
  TARBALL=$(ls -t "$WORK"/hardhat-epochs-*.tgz | head -1)
  cat >"$WORK/package.json" <<EOF
{
  "name": "oz-coverage-differential",
  "private": true,
  "devDependencies": {
    "hardhat": "2.29.1",
    "hardhat-epochs": "file:$TARBALL",
    "@nomicfoundation/hardhat-ethers": "3.1.3",
    "@nomicfoundation/hardhat-chai-matchers": "2.1.2",
    "@nomicfoundation/hardhat-network-helpers": "^1.0.3",
    "@openzeppelin/merkle-tree": "^1.0.7",
    "chai": "4.5.0",
    "ethers": "6.17.0",
    "hardhat-exposed": "^0.3.15",
    "hardhat-gas-reporter": "^2.1.0",
    "hardhat-ignore-warnings": "^0.2.11",
    "solc": "$SOLC_VERSION",
    "solidity-coverage": "0.8.17",
    "yargs": "^17.0.0"
  }
}
EOF
  rm -rf "$WORK/node_modules/hardhat-epochs" "$WORK/package-lock.json"
  (cd "$WORK" && npm install --no-audit --no-fund --loglevel=error)
fi

# 3. The library's config, loaded after a setup: WITH_HARDHAT_EPOCHS=1 loads the plugin; otherwise stock
#    Hardhat compiles with the same npm solc build (no solc download here). Its docs generator is left out.
cat >"$WORK/oz-setup.js" <<'EOF'
// the tests' own time (mocha's summary rounds to minutes), printed after the last test
require("hardhat/config").extendConfig((config) => {
  let start = 0;
  config.mocha.rootHooks = {
    beforeAll: () => void (start = Date.now()),
    afterAll: () => console.log(`tests took ${((Date.now() - start) / 1000).toFixed(1)} s`),
  };
});
if (process.env.WITH_HARDHAT_EPOCHS === "1") {
  require("hardhat-epochs");
} else {
  const { subtask } = require("hardhat/config");
  const { TASK_COMPILE_SOLIDITY_GET_SOLC_BUILD } = require("hardhat/builtin-tasks/task-names");
  subtask(TASK_COMPILE_SOLIDITY_GET_SOLC_BUILD).setAction(async ({ solcVersion }) => {
    const solc = require("solc");
    if (solcVersion !== require("solc/package.json").version) throw new Error(`no solc ${solcVersion} offline`);
    return { version: solcVersion, longVersion: solc.version().replace(/\.Emscripten\.clang$/, ""), compilerPath: require.resolve("solc/soljson.js"), isSolcJs: true };
  });
}
// PROFILE=1 (after the plugin, so the provider timed is the one the tests get): each request's wall time by method, through the provider the tests' ethers use (a measuring hook of this script)
if (process.env.OZ_PROFILE === "1") {
  const spent = new Map();
  require("hardhat/config").extendEnvironment((hre) => {
    const provider = hre.network.provider;
    // hardhat-ethers sends through `send`, other callers through `request`: the outermost call is timed
    let depth = 0;
    const timed = async (method, run) => {
      if (depth > 0) return run();
      depth++;
      const t = process.hrtime.bigint();
      try {
        return await run();
      } finally {
        depth--;
        const s = spent.get(method) ?? { n: 0, ns: 0n };
        s.n++;
        s.ns += process.hrtime.bigint() - t;
        spent.set(method, s);
      }
    };
    const request = provider.request.bind(provider);
    const send = provider.send.bind(provider);
    provider.request = (args) => timed(args.method, () => request(args));
    provider.send = (method, params) => timed(method, () => send(method, params));
  });
  process.on("exit", () => {
    const rows = [...spent].sort((a, b) => (b[1].ns > a[1].ns ? 1 : -1));
    const total = rows.reduce((sum, [, s]) => sum + s.ns, 0n);
    console.log(`requests: ${rows.reduce((n, [, s]) => n + s.n, 0)}, ${(Number(total) / 1e9).toFixed(2)} s in all`);
    for (const [m, s] of rows) console.log(`  ${m.padEnd(36)} ${String(s.n).padStart(7)}  ${(Number(s.ns) / 1e9).toFixed(2).padStart(7)} s  ${(Number(s.ns) / 1e3 / s.n).toFixed(0).padStart(6)} µs each`);
  });
}
EOF
sed -i -e "1i require('./oz-setup.js');" -e "/require('solidity-docgen');/d" -e "/docgen: require('.\/docs\/config'),/d" "$WORK/hardhat.config.js"
# a per-file summary to compare (istanbul's json-summary) beside the usual text table
echo "module.exports.istanbulReporter = ['json-summary', 'text'];" >>"$WORK/.solcover.js"

# solidity-coverage takes one glob: {a,b}/**/*.test.js
read -r -a FOLDERS <<<"$TESTS"
if [ ${#FOLDERS[@]} -gt 1 ]; then GLOB="{$(IFS=,; echo "${FOLDERS[*]}")}/**/*.test.js"; else GLOB="${FOLDERS[0]}/**/*.test.js"; fi

# 4. Both runs as the library's own coverage script runs them (COVERAGE=true: its config then lets the
#    instrumentation's unused parameters pass), the same compiler (COMPILER), one summary each.
shopt -s globstar
for mode in $MODES; do
  rm -rf "$WORK/coverage" "$WORK/coverage.json"
  plugin=$([[ "$mode" == plugin* ]] && echo 1 || echo 0)
  start=$(date +%s)
  if [[ "$mode" == *-test ]]; then
    (cd "$WORK" && NODE_OPTIONS=--max-old-space-size=4096 COMPILER=$SOLC_VERSION WITH_HARDHAT_EPOCHS=$plugin OZ_PROFILE=${PROFILE:-0} \
      npx hardhat test $(for t in "${FOLDERS[@]}"; do printf '%s ' "$t"/**/*.test.js; done) >"$WORK/run-$mode.log" 2>&1) || echo "$mode: hardhat test exited non-zero (see $WORK/run-$mode.log)"
  else
    (cd "$WORK" && COVERAGE=true NODE_OPTIONS=--max-old-space-size=4096 COMPILER=$SOLC_VERSION WITH_HARDHAT_EPOCHS=$plugin \
      npx hardhat coverage --testfiles "$GLOB" >"$WORK/run-$mode.log" 2>&1) || echo "$mode: hardhat coverage exited non-zero (see $WORK/run-$mode.log)"
    cp "$WORK/coverage/coverage-summary.json" "$WORK/summary-$mode.json" 2>/dev/null || echo "$mode: no coverage summary"
  fi
  end=$(date +%s)
  echo "$mode: $(grep -aEo '[0-9]+ passing' "$WORK/run-$mode.log" | tail -1), $(grep -aEo '[0-9]+ failing' "$WORK/run-$mode.log" | tail -1 || true), $(grep -aEo 'tests took [0-9.]+ s' "$WORK/run-$mode.log" | tail -1), $((end - start)) s in all"
done

# 5. The table: every file's four percentages, stock / plugin, and whether they are the same.
if [[ " $MODES " == *" stock "* && " $MODES " == *" plugin "* ]]; then
  node -e '
    const [stock, plugin] = [process.argv[1], process.argv[2]].map((f) => require(f));
    const kinds = ["statements", "branches", "functions", "lines"];
    const rel = (f) => f.replace(/^.*?\/contracts\//, "contracts/");
    const files = [...new Set([...Object.keys(stock), ...Object.keys(plugin)])].filter((f) => f !== "total").sort();
    let differ = 0;
    console.log(`| file | ${kinds.join(" | ")} | same |`);
    console.log(`|---|${kinds.map(() => "---").join("|")}|---|`);
    for (const f of [...files, "total"]) {
      const cells = kinds.map((k) => [stock[f]?.[k]?.pct, plugin[f]?.[k]?.pct]);
      const same = cells.every(([a, b]) => a === b);
      if (!same) differ++;
      if (f === "total" || !same || stock[f]?.lines?.covered > 0) console.log(`| ${f === "total" ? "**total**" : rel(f)} | ${cells.map(([a, b]) => (a === b ? `${a}` : `${a} / ${b}`)).join(" | ")} | ${same ? "yes" : "**no**"} |`);
    }
    console.log(`\n${files.length} files; ${differ} with a difference (files no test reached are left out of the table when both agree)`);
  ' "$WORK/summary-stock.json" "$WORK/summary-plugin.json"
fi
