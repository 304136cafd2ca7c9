#!/usr/bin/env bash
# Runs cosmos/evm's own precompile suite (tests/solidity/suites/precompiles: staking, distribution,
# ERC-20, slashing, gov, P-256, WERC20, bank, bech32), its test files unchanged, against
# `npx hardhat node --profile cosmos-evm` started from a genesis.json shaped as cosmos/evm's
# local_node.sh leaves it, and prints `precompiles: P passed, F failed`. See docs/cosmos-evm-suites.md.
# Not part of `npm test`: it needs a cosmos/evm checkout and the npm registry.
#
#   scripts/cosmos-evm-suites.sh <cosmos/evm checkout> [work dir]
#
#   EVM_REF        git ref of the checkout to export (default HEAD; empty = the checkout's files as they are)
#   SKIP_INSTALL   1 = reuse the suite's installed dependencies (the plugin is packed and installed anew)
#   PORT           the node's port (default 8545, the suite's hardhat.config.js)
#   MOCHA_GREP     only the tests whose titles match
set -euo pipefail

CHECKOUT=${1:?usage: scripts/cosmos-evm-suites.sh <cosmos/evm checkout> [work dir]}
CHECKOUT=$(cd "$CHECKOUT" && pwd)
WORK=${2:-/tmp/cosmos-evm-suites}
REF=${EVM_REF-HEAD}
PORT=${PORT:-8545}
ROOT=$(cd "$(dirname "$0")/.." && pwd)

mkdir -p "$WORK"
WORK=$(cd "$WORK" && pwd)
SUITE="$WORK/suite"
SUITE_DIR=tests/solidity/suites/precompiles

# 1. The suite, and the precompiles' Solidity interfaces its `get-contracts` script copies in.
rm -rf "$SUITE" "$WORK/src"
mkdir -p "$WORK/src"
if [ -n "$REF" ]; then
  git -C "$CHECKOUT" archive "$REF" "$SUITE_DIR" precompiles tests/solidity/yarn.lock | tar -x -C "$WORK/src"
  COMMIT=$(git -C "$CHECKOUT" rev-parse "$REF")
else
  mkdir -p "$WORK/src/tests/solidity"
  cp -R "$CHECKOUT/$SUITE_DIR" "$WORK/src/$SUITE_DIR" && cp -R "$CHECKOUT/precompiles" "$WORK/src/precompiles"
  cp "$CHECKOUT/tests/solidity/yarn.lock" "$WORK/src/tests/solidity/yarn.lock"
  COMMIT="$(git -C "$CHECKOUT" rev-parse HEAD) (working tree)"
fi
cp -R "$WORK/src/$SUITE_DIR" "$SUITE"
mkdir -p "$SUITE/contracts/cosmos"
# package.json's get-contracts: every .sol under precompiles/ but three (rsync's include/exclude)
(cd "$WORK/src/precompiles" && find . -name '*.sol' ! -name ERC20Minter_OpenZeppelinV5.sol ! -name WEVMOS.sol ! -name ERC20NoMetadata.sol \
  -exec sh -c 'mkdir -p "$0/$(dirname "$1")" && cp "$1" "$0/$1"' "$SUITE/contracts/cosmos" {} \;)

# 2. The suite's dev dependencies at the versions the checkout's yarn.lock resolves them to, two npm
#    solc builds for its two compilers, and (in a directory of its own) this plugin as users get it.
if [ "${SKIP_INSTALL:-}" != 1 ]; then
  node - "$SUITE/package.json" "$WORK/src/tests/solidity/yarn.lock" >"$WORK/suite-package.json" <<'EOF'
const fs = require("fs");
const [pkgFile, lockFile] = process.argv.slice(2);
const pkg = JSON.parse(fs.readFileSync(pkgFile, "utf8"));
const lock = fs.readFileSync(lockFile, "utf8");
// a yarn v1 lock: `"name@range", "name@range2":\n  version "x.y.z"`
const resolved = (name, range) => {
  for (const block of lock.split(/\n\n/)) {
    const [head, ...rest] = block.split("\n");
    const specs = head.replace(/:$/, "").split(", ").map((s) => s.replace(/^"|"$/g, ""));
    if (!specs.includes(`${name}@${range}`)) continue;
    const v = /^\s+version "([^"]+)"/m.exec(rest.join("\n"));
    if (v) return v[1];
  }
  throw new Error(`yarn.lock has no ${name}@${range}`);
};
const pin = (deps) => Object.fromEntries(Object.entries(deps ?? {}).map(([n, r]) => [n, resolved(n, r)]));
const out = {
  name: pkg.name, private: true,
  devDependencies: { ...pin(pkg.devDependencies), "solc-0.8.18": "npm:solc@0.8.18", "solc-0.4.22": "npm:solc@0.4.22" },
  dependencies: pin(pkg.dependencies),
};
process.stdout.write(JSON.stringify(out, null, 2) + "\n");
EOF
  mkdir -p "$WORK/deps"
  cp "$WORK/suite-package.json" "$WORK/deps/package.json"
  (cd "$WORK/deps" && npm install --no-audit --no-fund --loglevel=error --legacy-peer-deps)
fi
mkdir -p "$WORK/node"
(cd "$ROOT" && npm pack --pack-destination "$WORK" --silent >/dev/null)
TARBALL=$(ls -t "$WORK"/hardhat-epochs-*.tgz | head -1)
cat >"$WORK/node/package.json" <<EOF
{ "name": "cosmos-evm-node", "private": true, "devDependencies": { "hardhat": "$(node -p 'require("'"$ROOT"'/node_modules/hardhat/package.json").version')", "hardhat-epochs": "file:$TARBALL" } }
EOF
# the tarball keeps its version from build to build: drop the old copy and its lock entry
rm -rf "$WORK/node/node_modules/hardhat-epochs" "$WORK/node/package-lock.json"
(cd "$WORK/node" && npm install --no-audit --no-fund --loglevel=error)
echo 'require("hardhat-epochs"); module.exports = { networks: { hardhat: {} } };' >"$WORK/node/hardhat.config.js"
ln -sfn "$WORK/deps/node_modules" "$SUITE/node_modules"

# 3. Offline compilers: the suite's hardhat.config.js (its two versions) takes solc from the npm builds
#    installed above instead of downloading them; one line put before the config, the tests untouched.
cat >"$SUITE/offline-solc.js" <<'EOF'
const { subtask } = require("hardhat/config");
const { TASK_COMPILE_SOLIDITY_GET_SOLC_BUILD } = require("hardhat/builtin-tasks/task-names");
subtask(TASK_COMPILE_SOLIDITY_GET_SOLC_BUILD).setAction(async ({ solcVersion }) => {
  const pkg = `solc-${solcVersion}`;
  const solc = require(pkg);
  return { version: solcVersion, longVersion: solc.version().replace(/\.Emscripten\.clang$/, ""), compilerPath: require.resolve(`${pkg}/soljson.js`), isSolcJs: true };
});
EOF
# mocha's spec output stays, with a tally that counts as failed the tests a failed hook kept from running
cat >>"$SUITE/offline-solc.js" <<'EOF'
const { extendConfig } = require("hardhat/config");
extendConfig((config) => {
  config.mocha = { ...config.mocha, reporter: require.resolve("./tally-reporter.js"), reporterOptions: { output: process.env.SUITE_TALLY } };
});
EOF
cat >"$SUITE/tally-reporter.js" <<'EOF'
const fs = require("fs");
const Mocha = require("mocha");
const { EVENT_TEST_PASS, EVENT_TEST_FAIL, EVENT_RUN_END } = Mocha.Runner.constants;
class Tally extends Mocha.reporters.Spec {
  constructor(runner, options) {
    super(runner, options);
    const passed = [];
    const failed = [];
    const done = new Set();
    runner.on(EVENT_TEST_PASS, (t) => { done.add(t); passed.push(t.fullTitle()); });
    runner.on(EVENT_TEST_FAIL, (t, err) => {
      const line = String(err && err.message).split("\n")[0].slice(0, 300);
      if (t.type !== "hook") {
        done.add(t);
        return void failed.push({ title: t.fullTitle(), error: line });
      }
      // a failed hook: each test of its suite that has not run is a failure
      const walk = (s) => {
        for (const x of s.tests) if (!done.has(x)) { done.add(x); failed.push({ title: x.fullTitle(), error: `not run (${t.title}): ${line}` }); }
        s.suites.forEach(walk);
      };
      walk(t.parent);
    });
    runner.once(EVENT_RUN_END, () => { if (options.reporterOptions.output) fs.writeFileSync(options.reporterOptions.output, JSON.stringify({ passed, failed }, null, 2)); });
  }
}
module.exports = Tally;
EOF
sed -i '1i require("./offline-solc.js");' "$SUITE/hardhat.config.js"
sed -i "s#http://127.0.0.1:8545#http://127.0.0.1:$PORT#" "$SUITE/hardhat.config.js"
(cd "$SUITE" && npx hardhat compile --quiet)

# 4. The chain: local_node.sh's genesis in a fresh home, the node started as that script starts evmd
#    (its flags; a block every second, as its timeout_commit = "1s" makes them).
HOME_DIR="$WORK/home"
rm -rf "$HOME_DIR"
(cd "$ROOT" && npx ts-node --transpile-only scripts/local-node-genesis.ts "$HOME_DIR")
LOG="$WORK/node.log"
(cd "$WORK/node" && exec setsid npx hardhat node --profile cosmos-evm --home "$HOME_DIR" --hostname 127.0.0.1 --port "$PORT" \
  --minimum-gas-prices=0atest --chain-id 262144 --block-time 1 >"$LOG" 2>&1) &
NODE_PID=$!
trap 'kill -- -"$NODE_PID" 2>/dev/null || true' EXIT
for _ in $(seq 1 120); do
  curl -sf -H 'content-type: application/json' -d '{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[]}' "http://127.0.0.1:$PORT" >/dev/null && break
  kill -0 "$NODE_PID" 2>/dev/null || { cat "$LOG"; echo "the node stopped"; exit 1; }
  sleep 1
done

# 5. The suite, unchanged, over the network its config names.
TALLY="$WORK/tally.json"
rm -f "$TALLY"
(cd "$SUITE" && SUITE_TALLY="$TALLY" npx hardhat test --network cosmos --no-compile ${MOCHA_GREP:+--grep "$MOCHA_GREP"} >"$WORK/test.log" 2>&1) || true
node - "$TALLY" "$COMMIT" "$WORK/test.log" <<'EOF'
const fs = require("fs");
const [tally, commit, log] = process.argv.slice(2);
if (!fs.existsSync(tally)) {
  console.log(`the suite did not finish: see ${log}`);
  process.exit(1);
}
const { passed, failed } = JSON.parse(fs.readFileSync(tally, "utf8"));
if (failed.length > 0) console.log(`failing (its output: ${log}):\n${failed.map((f) => `- ${f.title}\n    ${f.error}`).join("\n")}`);
console.log(`cosmos/evm ${commit}`);
console.log(`precompiles: ${passed.length} passed, ${failed.length} failed`);
EOF
