#!/usr/bin/env bash
# Runs the test suites of Hardhat 3's own plugins (hardhat-ethers-chai-matchers 3, hardhat-network-helpers 3)
# twice — stock Hardhat 3 (EDR), then with this plugin listed — on Node 22, and prints the counts, times and
# the tests that pass stock but not with the plugin. See docs/hardhat-plugin-suites.md. Not part of
# `npm test`: it needs a checkout (or bare mirror) of github.com/NomicFoundation/hardhat and the npm registry.
#
#   scripts/hardhat3-plugin-suites.sh <hardhat checkout> [work dir]
#
#   CHAI_REF / HELPERS_REF  the tags the suites are exported from (defaults below: the versions npm serves)
#   SUITES                  which suites (default "hardhat-ethers-chai-matchers hardhat-network-helpers")
#   MODES                   which runs (default "stock plugin")
#   SKIP_INSTALL            1 = reuse the work dir's node_modules and packed plugin
#   NODE_PACKAGE            the Node the suites run on (default node@22, from the npm registry)
set -euo pipefail

CHECKOUT=${1:?usage: scripts/hardhat3-plugin-suites.sh <hardhat checkout> [work dir]}
WORK=${2:-/tmp/hardhat3-plugin-suites}
CHAI_REF=${CHAI_REF:-@nomicfoundation/hardhat-ethers-chai-matchers@3.0.11}
HELPERS_REF=${HELPERS_REF:-@nomicfoundation/hardhat-network-helpers@3.0.11}
SUITES=${SUITES:-"hardhat-ethers-chai-matchers hardhat-network-helpers"}
MODES=${MODES:-"stock plugin"}
NODE_PACKAGE=${NODE_PACKAGE:-node@22}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
SOLC_VERSION=$(cd "$ROOT" && node -p 'require("solc/package.json").version')

mkdir -p "$WORK"
WORK=$(cd "$WORK" && pwd)
# npm's own variables (when started from an npm script) would point the inner npm at this repository
run_node() { (cd "$1" && shift && env $(env | grep -o '^npm_[^=]*' | sed 's/^/-u /') npx -y -p "$NODE_PACKAGE" -c "$*"); }

# 1. The suites' sources, the test utilities they share (private to Hardhat's monorepo) and its base tsconfig.
rm -rf "$WORK/packages"
git -C "$CHECKOUT" archive "$CHAI_REF" packages/hardhat-ethers-chai-matchers packages/hardhat-test-utils packages/config | tar -x -C "$WORK"
git -C "$CHECKOUT" archive "$HELPERS_REF" packages/hardhat-network-helpers | tar -x -C "$WORK"
# tsx runs the test utilities from source
node -e '
  const f = process.argv[1], p = require(f);
  p.exports = { ".": "./src/index.ts", "./package.json": "./package.json" };
  delete p.devDependencies; p.dependencies = {};
  require("fs").writeFileSync(f, JSON.stringify(p, null, 2));
' "$WORK/packages/hardhat-test-utils/package.json"

# 2. Hardhat 3 and the suites' dependencies as npm serves them, and this plugin as users get it.
if [ "${SKIP_INSTALL:-}" != 1 ]; then
  rm -f "$WORK"/hardhat-epochs-*.tgz
  (cd "$ROOT" && npm pack --pack-destination "$WORK" --silent >/dev/null)
  TARBALL=$(ls "$WORK"/hardhat-epochs-*.tgz)
  cat >"$WORK/package.json" <<EOF
{
  "name": "hardhat3-plugin-suites",
  "private": true,
  "type": "module",
  "devDependencies": {
    "hardhat": "3.18.0",
    "hardhat-epochs": "file:$TARBALL",
    "@nomicfoundation/hardhat-ethers": "4.2.0",
    "@nomicfoundation/hardhat-mocha": "4.0.0",
    "@nomicfoundation/hardhat-node-test-reporter": "3.1.1",
    "@nomicfoundation/hardhat-utils": "4.3.0",
    "@nomicfoundation/hardhat-errors": "3.1.0",
    "@nomicfoundation/hardhat-test-utils": "file:./packages/hardhat-test-utils",
    "chai": "5.3.3",
    "chai-as-promised": "8.0.2",
    "deep-eql": "5.0.2",
    "ethers": "6.17.0",
    "mocha": "12.0.0",
    "solc": "$SOLC_VERSION",
    "tsx": "4.21.0",
    "expect-type": "1.2.2",
    "@types/node": "22.19.1"
  }
}
EOF
  rm -rf "$WORK/node_modules/hardhat-epochs" "$WORK/package-lock.json"
  run_node "$WORK" npm install --no-audit --no-fund --loglevel=error --prefer-offline
fi

# 3. WITH_HARDHAT_EPOCHS=1 lists this plugin where the suites make their Hardhat runtime; otherwise stock
#    Hardhat 3 compiles with the same npm solc (no compiler download here). Both compile with that version.
node --input-type=module -e '
  import fs from "node:fs";
  const [work, solcVersion] = process.argv.slice(1);
  const soljson = `${work}/node_modules/solc/soljson.js`;
  const edit = (file, from, to) => {
    const text = fs.readFileSync(file, "utf8");
    if (!text.includes(from)) throw new Error(`${file}: no ${JSON.stringify(from)} (another version of the suite?)`);
    fs.writeFileSync(file, text.replace(from, to));
  };
  const withEpochs = `process.env.WITH_HARDHAT_EPOCHS === "1"`;
  const imp = `import hardhatEpochs from "hardhat-epochs";\n`;
  const chai = `${work}/packages/hardhat-ethers-chai-matchers/test/fixture-projects/hardhat-project/hardhat.config.ts`;
  edit(chai, "plugins: [hardhatEthersPlugin],", `plugins: [hardhatEthersPlugin, ...(${withEpochs} ? [hardhatEpochs] : [])],`);
  edit(chai, `solidity: "0.8.24",`, `solidity: ${withEpochs} ? "${solcVersion}" : { version: "${solcVersion}", path: "${soljson}" },`);
  fs.writeFileSync(chai, imp + fs.readFileSync(chai, "utf8"));
  const helpers = `${work}/packages/hardhat-network-helpers/test/helpers/helpers.ts`;
  edit(helpers, `networks: { default: { type: "edr-simulated", ...config } },`,
    `...(${withEpochs} ? { plugins: [hardhatEpochs], epochs: { network: config } } : { networks: { default: { type: "edr-simulated", ...config } } }),`);
  fs.writeFileSync(helpers, imp + fs.readFileSync(helpers, "utf8"));
  const index = `${work}/packages/hardhat-network-helpers/test/index.ts`;
  const text = fs.readFileSync(index, "utf8").replaceAll("plugins: [", `plugins: [...(${withEpochs} ? [hardhatEpochs] : []), `);
  fs.writeFileSync(index, imp + text);
' "$WORK" "$SOLC_VERSION"

# 4. Both runs, one JUnit report each.
for mode in $MODES; do
  for suite in $SUITES; do
    out="$WORK/results-$mode-$suite.xml"
    start=$(date +%s.%N)
    run_node "$WORK/packages/$suite" WITH_HARDHAT_EPOCHS=$([ "$mode" = plugin ] && echo 1 || echo 0) \
      node --import tsx/esm --test --test-reporter=spec --test-reporter-destination=stdout \
      --test-reporter=junit --test-reporter-destination="$out" \
      "'test/*.ts'" "'test/!(fixture-projects|helpers)/**/*.ts'" >"$WORK/log-$mode-$suite.txt" 2>&1 || true
    end=$(date +%s.%N)
    node -e '
      const [log, mode, suite, start, end] = process.argv.slice(1);
      const text = require("fs").readFileSync(log, "utf8");
      const n = (k) => (text.match(new RegExp(`^ℹ ${k} (\\d+)`, "m")) ?? [, "?"])[1];
      console.log(`${mode.padEnd(7)} ${suite.padEnd(30)} tests ${n("tests")}  pass ${n("pass")}  fail ${n("fail")}  skipped ${n("skipped")}  wall ${(+end - +start).toFixed(1)} s`);
    ' "$WORK/log-$mode-$suite.txt" "$mode" "$suite" "$start" "$end"
  done
done

# 5. What passes stock and fails with the plugin (JUnit: a testcase with a <failure> child failed).
if [[ " $MODES " == *" stock "* && " $MODES " == *" plugin "* ]]; then
  for suite in $SUITES; do
    node -e '
      const fs = require("fs");
      // node:test nests a <testsuite> per describe; a test name is its describes and its own, joined
      const cases = (file) => {
        const out = new Map(), path = [];
        let open;
        for (const m of fs.readFileSync(file, "utf8").matchAll(/<testsuite name="([^"]*)"[^>]*>|<\/testsuite>|<testcase name="([^"]*)"[^>]*?(\/?)>|<failure|<\/testcase>/g)) {
          if (m[1] !== undefined) path.push(m[1]);
          else if (m[0] === "</testsuite>") path.pop();
          else if (m[2] !== undefined) {
            let name = [...path, m[2]].join(" › ");
            for (let n = 2; out.has(name); n++) name = `${[...path, m[2]].join(" › ")} (#${n})`; // a suite may reuse a title
            out.set(name, "pass");
            open = m[3] === "/" ? undefined : name;
          } else if (m[0] === "<failure" && open !== undefined) out.set(open, "fail");
          else if (m[0] === "</testcase>") open = undefined;
        }
        return out;
      };
      const [stock, plugin] = [cases(process.argv[1]), cases(process.argv[2])];
      const lost = [...plugin].filter(([name, r]) => r === "fail" && stock.get(name) === "pass").map(([name]) => name);
      console.log(`\n${process.argv[3]}: ${lost.length} pass stock and fail with the plugin`);
      for (const name of lost) console.log(`- ${name}`);
    ' "$WORK/results-stock-$suite.xml" "$WORK/results-plugin-$suite.xml" "$suite"
  done
fi
