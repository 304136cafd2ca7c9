#!/usr/bin/env bash
# Runs the test suites of Hardhat's own plugins (hardhat-chai-matchers 2.1.x, hardhat-network-helpers 1.1.x)
# twice — stock Hardhat, then with this plugin loaded — and prints the counts, times and the tests that pass
# stock but not with the plugin. See docs/hardhat-plugin-suites.md. Not part of `npm test`: it needs a
# checkout of github.com/NomicFoundation/hardhat and the npm registry.
#
#   scripts/hardhat-plugin-suites.sh <hardhat checkout> [work dir]
#
#   HARDHAT_REF   git ref of the checkout to export (default v2; empty = the checkout's files as they are)
#   SUITES        which suites (default "hardhat-chai-matchers hardhat-network-helpers")
#   MODES         which runs (default "stock plugin")
#   SKIP_INSTALL  1 = reuse the work dir's node_modules and packed plugin
#   MOCHA_GREP    tests left out of both runs (default: chai-matchers' "…non-chainable method" tests, which
#                 leave a rejected promise behind that fails whichever hook of a later test is running;
#                 empty = run everything)
set -euo pipefail

CHECKOUT=${1:?usage: scripts/hardhat-plugin-suites.sh <hardhat checkout> [work dir]}
CHECKOUT=$(cd "$CHECKOUT" && pwd)
WORK=${2:-/tmp/hardhat-plugin-suites}
REF=${HARDHAT_REF-v2}
SUITES=${SUITES:-"hardhat-chai-matchers hardhat-network-helpers"}
MODES=${MODES:-"stock plugin"}
MOCHA_GREP=${MOCHA_GREP-"non-chainable method"}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
SOLC_VERSION=$(node -p 'require("solc/package.json").version' 2>/dev/null || (cd "$ROOT" && node -p 'require("solc/package.json").version'))

mkdir -p "$WORK"
WORK=$(cd "$WORK" && pwd)

# 1. The suites' sources (and the shared mocha and TypeScript settings they extend), outside this repository.
rm -rf "$WORK/packages" "$WORK/config"
for dir in config $(printf 'packages/%s ' $SUITES); do
  if [ -n "$REF" ]; then
    git -C "$CHECKOUT" archive "$REF" "$dir" | tar -x -C "$WORK"
  else
    mkdir -p "$WORK/$(dirname "$dir")" && cp -R "$CHECKOUT/$dir" "$WORK/$dir"
  fi
done

# 2. Their dev dependencies, the Hardhat this plugin is tested with, and this plugin as users get it.
if [ "${SKIP_INSTALL:-}" != 1 ]; then
  (cd "$ROOT" && npm pack --pack-destination "$WORK" --silent >/dev/null)
  TARBALL=$(ls -t "$WORK"/hardhat-epochs-*.tgz | head -1)
  cat >"$WORK/package.json" <<EOF
{
  "name": "hardhat-plugin-suites",
  "private": true,
  "devDependencies": {
    "hardhat": "2.29.1",
    "hardhat-epochs": "file:$TARBALL",
    "@nomicfoundation/hardhat-ethers": "3.1.3",
    "@nomicfoundation/hardhat-chai-matchers": "2.1.2",
    "ethers": "6.17.0",
    "ethers-v5": "npm:ethers@^5.7.0",
    "ethereumjs-util": "7.1.5",
    "solc": "$SOLC_VERSION",
    "chai": "4.5.0",
    "chai-as-promised": "7.1.2",
    "deep-eql": "^4.0.1",
    "ordinal": "^1.0.3",
    "bignumber.js": "^9.0.2",
    "bn.js": "^5.1.0",
    "get-port": "5.1.1",
    "mocha": "^11.1.0",
    "ts-node": "10.9.2",
    "typescript": "5.9.3",
    "@types/bn.js": "^5.1.0",
    "@types/chai": "4.3.20",
    "@types/chai-as-promised": "7.1.8",
    "@types/mocha": "10.0.10",
    "@types/node": "20.19.43"
  }
}
EOF
  # the tarball keeps its version from build to build: drop the old copy and its lock entry
  rm -rf "$WORK/node_modules/hardhat-epochs" "$WORK/package-lock.json"
  (cd "$WORK" && npm install --no-audit --no-fund --loglevel=error)
fi

# 3. Each fixture project loads this setup first: WITH_HARDHAT_EPOCHS=1 loads the plugin; otherwise stock
#    Hardhat compiles with the same npm solc build (no solc download here). Both runs compile the
#    fixtures' contracts with that solc version, since the plugin compiles with it only.
cat >"$WORK/fixture-setup.js" <<'EOF'
if (process.env.WITH_HARDHAT_EPOCHS === "1") {
  require("hardhat-epochs");
} else {
  const { subtask } = require("hardhat/config");
  const { TASK_COMPILE_SOLIDITY_GET_SOLC_BUILD } = require("hardhat/builtin-tasks/task-names");
  subtask(TASK_COMPILE_SOLIDITY_GET_SOLC_BUILD).setAction(async ({ solcVersion }) => {
    const solc = require("solc");
    if (solcVersion !== require("solc/package.json").version) throw new Error(`no solc ${solcVersion} offline`);
    return {
      version: solcVersion,
      longVersion: solc.version().replace(/\.Emscripten\.clang$/, ""),
      compilerPath: require.resolve("solc/soljson.js"),
      isSolcJs: true,
    };
  });
}
EOF
for config in "$WORK"/packages/*/test/fixture-projects/*/hardhat.config.js; do
  sed -i -E "s/solidity: \"0\.8\.[0-9]+\"/solidity: \"$SOLC_VERSION\"/" "$config"
  sed -i "1i require(\"$WORK/fixture-setup.js\");" "$config"
  rm -rf "$(dirname "$config")/artifacts" "$(dirname "$config")/cache"
done

# Compiled once before the runs (both use the same solc build, hence the same cache): solc-js takes
# seconds to start, and the suites' first `compile` runs in a hook with mocha's 10 s timeout.
for project in "$WORK"/packages/*/test/fixture-projects/*/; do
  if [ -d "$project/contracts" ]; then
    (cd "$project" && WITH_HARDHAT_EPOCHS=0 node "$WORK/node_modules/hardhat/internal/cli/bootstrap.js" compile --quiet)
  fi
done

# 4. Both runs, one JSON report each.
for mode in $MODES; do
  for suite in $SUITES; do
    out="$WORK/results-$mode-$suite.json"
    start=$(date +%s.%N)
    (cd "$WORK/packages/$suite" && WITH_HARDHAT_EPOCHS=$([ "$mode" = plugin ] && echo 1 || echo 0) \
      npx mocha --recursive "test/**/*.ts" --sort --exit ${MOCHA_GREP:+--grep "$MOCHA_GREP" --invert} --reporter json --reporter-option "output=$out" >/dev/null 2>"$WORK/stderr-$mode-$suite.log") || true
    end=$(date +%s.%N)
    node -e '
      const r = require(process.argv[1]).stats;
      console.log(`${process.argv[2].padEnd(7)} ${process.argv[3].padEnd(25)} passing ${r.passes}  failing ${r.failures}  pending ${r.pending}  wall ${(+process.argv[5] - +process.argv[4]).toFixed(1)} s`);
    ' "$out" "$mode" "$suite" "$start" "$end"
  done
done

# 5. What passes stock and fails with the plugin.
if [[ " $MODES " == *" stock "* && " $MODES " == *" plugin "* ]]; then
  for suite in $SUITES; do
    node -e '
      const [stock, plugin] = [process.argv[1], process.argv[2]].map((f) => require(f));
      const passed = new Set(stock.passes.map((t) => t.fullTitle));
      const lost = plugin.failures.filter((t) => passed.has(t.fullTitle));
      console.log(`\n${process.argv[3]}: ${lost.length} pass stock and fail with the plugin`);
      for (const t of lost) console.log(`- ${t.fullTitle}\n    ${String(t.err.message).split("\n")[0].slice(0, 300)}`);
    ' "$WORK/results-stock-$suite.json" "$WORK/results-plugin-$suite.json" "$suite"
  done
fi
