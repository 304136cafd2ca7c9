/**
 * The package on Hardhat 3, as a team starting today gets it: `npm pack`, a fresh project made of
 * examples/weekly-rewards-hardhat3 (its dependency on the tarball as it stands), installed with npm from the registry under Node 22 (Hardhat 3
 * needs ≥ 22.13; Node comes from the registry's `node@22` package; the mocha tests run on `node@24`
 * too), then the team's commands: build offline, type-check against the package's declarations, `hardhat test mocha` (epoch hooks,
 * loadFixture, time.increase, the chai matchers, console.log, failures in Hardhat's words), node:test
 * through hardhat-node-test-runner, `epochs:list`, and `hardhat node` answering
 * `epochs:current --network localhost`.
 *
 * Unlike test/e2e/outside-in.test.ts this one needs the npm registry: this repository installs
 * Hardhat 2, and one node_modules holds one `hardhat`. The install uses npm's cache first.
 */
import { expect } from "chai";
import { type SpawnSyncReturns, spawnSync } from "node:child_process";
import { copyFileSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { nodeBin, npmChildEnv, packTarball } from "../helpers/pack";
import { type Started, freePort, startNodeProcess, stopProcessGroup, waitForOutput } from "../helpers/processes";

const ROOT = path.resolve(__dirname, "../..");
const EXAMPLE = path.join(ROOT, "examples", "weekly-rewards-hardhat3");
const NODE = "node@22";
const SOLIDITY_TESTS = path.join(ROOT, "contracts", "test", "solidity");

/** Beside the example: a contract that logs and fails, its mocha test, and node:test tests with their config. */
const EXTRA_FILES: Record<string, string> = {
  "contracts/Logger.sol": `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;
import "hardhat/console.sol";
contract Logger {
    uint256 public n;
    error TooBig(uint256 by);
    function bump(uint256 by) external {
        console.log("bump by %d from %s", by, msg.sender);
        require(by < 10, "too big");
        n += by;
    }
    function bumpCustom(uint256 by) external {
        if (by >= 10) revert TooBig(by);
        n += by;
    }
}
`,
  "test/Logger.test.ts": `import { expect } from "chai";
import { network } from "hardhat";
const { ethers } = await network.create();
describe("Logger", () => {
  it("prints console.log and fails in Hardhat's words", async () => {
    const logger: any = await ethers.deployContract("Logger");
    await logger.bump(3);
    await expect(logger.bump(30)).to.be.revertedWith("too big");
    const failure = (p: Promise<unknown>): Promise<string | undefined> => p.then(() => undefined, (e: Error) => e.message);
    expect(await failure(logger.bump(31))).to.equal("VM Exception while processing transaction: reverted with reason string 'too big'");
    expect(await failure(logger.bumpCustom(40))).to.equal("VM Exception while processing transaction: reverted with custom error 'TooBig(40)'");
    expect(await logger.n()).to.equal(3n);
  });
  it("puts the Solidity frames in the stack, as Hardhat 3's EDR network does", async () => {
    const logger: any = await ethers.deployContract("Logger");
    const caught = (p: Promise<unknown>): Promise<any> => p.then(() => expect.fail("no failure"), (e: unknown) => e);
    const err = await caught(logger.bump(31));
    expect(err.stack.split("\\n").slice(0, 2)).to.deep.equal([
      "SolidityError: VM Exception while processing transaction: reverted with reason string 'too big'",
      "    at Logger.bump (contracts/Logger.sol:9)",
    ]);
    expect(err.code).to.equal(3);
    const [signer] = await ethers.getSigners();
    const unknown = await caught(signer.sendTransaction({ to: logger.target, data: "0xdeadbeef" }));
    expect(unknown.message).to.equal("Transaction reverted: function selector was not recognized and there's no fallback function");
    expect(unknown.stack).to.include("    at Logger.<unrecognized-selector> (contracts/Logger.sol:4)");
    await expect(signer.sendTransaction({ to: logger.target, data: "0xdeadbeef" })).to.be.revertedWithoutReason(ethers);
  });
});
`,
  // a hook that refuses every week's end, for the hook matchers
  "contracts/RefusingHook.sol": `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;
import {EPOCHS} from "hardhat-epochs/contracts/IEpochs.sol";
import {IEpochHooks} from "hardhat-epochs/contracts/IEpochHooks.sol";
contract RefusingHook is IEpochHooks {
    error TooEarly(int64 epochNumber);
    uint256 public starts;
    uint256 public ends;
    constructor() { EPOCHS.registerHooks(); }
    function beforeEpochStart(string calldata, int64) external { starts += 1; }
    function afterEpochEnd(string calldata identifier, int64 epochNumber) external {
        ends += 1;
        if (keccak256(bytes(identifier)) == keccak256("week")) revert TooEarly(epochNumber);
    }
}
`,
  "test/EpochHookMatchers.test.ts": `import { expect } from "chai";
import { network } from "hardhat";
const { ethers, epochs } = await network.create();
describe("epoch hook matchers on Hardhat 3", () => {
  it("asserts what an advance's hooks did, in one line", async () => {
    const hook = await ethers.deployContract("RefusingHook");
    const ended = await epochs.current("week");
    await expect(epochs.advance("week")).to.callEpochHook(hook, "beforeEpochStart");
    await expect(epochs.advance("week")).to.failEpochHook(hook, "afterEpochEnd").withCustomError(hook, "TooEarly").withArgs(ended + 1n);
    await expect(epochs.advance("day")).not.to.failEpochHook();
    const report = await epochs.advanceWithReport("week");
    // the days a week's advance passes tick too: the week's own calls
    const week = report.hooks.filter((h) => h.identifier === "week");
    expect(week.map((h) => [h.hook, h.success])).to.deep.equal([["afterEpochEnd", false], ["beforeEpochStart", true]]);
    expect(week[0].contract).to.equal(await hook.getAddress());
  });
});
`,
  "hardhat.node-test.config.ts": `import { defineConfig } from "hardhat/config";
import hardhatEthers from "@nomicfoundation/hardhat-ethers";
import hardhatNodeTestRunner from "@nomicfoundation/hardhat-node-test-runner";
import hardhatNetworkHelpers from "@nomicfoundation/hardhat-network-helpers";
import hardhatEpochs from "hardhat-epochs";
export default defineConfig({
  plugins: [hardhatEpochs, hardhatEthers, hardhatNodeTestRunner, hardhatNetworkHelpers],
  solidity: "0.8.30",
  paths: { tests: { nodejs: "test-node" } },
  epochs: {
    genesis: { epochs: [{ identifier: "hour", duration: 3600 }] },
    // the in-process network's settings, in Hardhat's words
    network: { chainId: 31337, allowBlocksWithSameTimestamp: true, accounts: { count: 3 } },
  },
});
`,
  // a cosmos/evm chain with its staking and distribution precompiles, minting at each hour's end
  // Solidity tests on the epochs chain: Hardhat 3's `test solidity` with `epochs.solidityTests`
  "hardhat.solidity.config.ts": `import { defineConfig } from "hardhat/config";
import hardhatEpochs from "hardhat-epochs";
export default defineConfig({
  plugins: [hardhatEpochs],
  solidity: "0.8.30",
  epochs: {
    profile: process.env.EPOCHS_PROFILE === "cosmos-evm" ? "cosmos-evm" : "evmos",
    genesis: { epochs: [{ identifier: "week", duration: 604800 }, { identifier: "day", duration: 86400 }] },
    precompiles: { staking: true },
    solidityTests: true,
  },
  paths: { tests: { solidity: "test-solidity" } },
  test: { solidity: { fuzz: { runs: 16 } } },
});
`,
  "test-solidity/WeeklyRewards.t.sol": `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;
import {WeeklyRewards} from "../contracts/WeeklyRewards.sol";
import {EPOCHS_CHEATS} from "hardhat-epochs/contracts/IEpochsCheats.sol";
interface Vm {
    function deal(address, uint256) external;
    function prank(address) external;
    function expectEmit(bool, bool, bool, bool, address) external;
    function expectRevert(bytes4) external;
    function assertEq(uint256, uint256) external pure;
}
contract WeeklyRewardsTest {
    Vm constant vm = Vm(0x7109709ECfa91a80626fF3989D68f67F5b1DD12D);
    event WeekClosed(int64 indexed week, uint256 reward, uint256 totalStaked);
    WeeklyRewards rewards;
    address constant ALICE = address(0xA11CE);
    function setUp() public {
        rewards = new WeeklyRewards{value: 10 ether}(1 ether);
        vm.deal(ALICE, 5 ether);
        vm.prank(ALICE);
        rewards.stake{value: 2 ether}();
        // the week timer starts with the first advance
        if (EPOCHS_CHEATS.currentEpoch("week") == 0) EPOCHS_CHEATS.advanceEpoch("week");
    }
    function test_aWeekEndPaysStakers() public {
        vm.expectEmit(false, false, false, false, address(rewards));
        emit WeekClosed(0, 1 ether, 2 ether);
        EPOCHS_CHEATS.advanceEpoch("week");
        vm.assertEq(rewards.weeksPaid(), 1);
        vm.assertEq(rewards.pending(ALICE), 1 ether);
    }
    function test_onlyTheChainClosesAWeek() public {
        vm.expectRevert(WeeklyRewards.OnlyChain.selector);
        rewards.afterEpochEnd("week", 1);
    }
    function testFuzz_stakesAddUp(uint96 amount) public {
        vm.deal(address(this), amount);
        rewards.stake{value: amount}();
        vm.assertEq(rewards.totalStaked(), 2 ether + uint256(amount));
    }
}
`,
  "hardhat.staking.config.ts": `import { defineConfig } from "hardhat/config";
import hardhatEthers from "@nomicfoundation/hardhat-ethers";
import hardhatNodeTestRunner from "@nomicfoundation/hardhat-node-test-runner";
import hardhatEpochs from "hardhat-epochs";
export default defineConfig({
  plugins: [hardhatEpochs, hardhatEthers, hardhatNodeTestRunner],
  solidity: "0.8.30",
  paths: { tests: { nodejs: "test-staking" } },
  epochs: { profile: "cosmos-evm", precompiles: { staking: { unbondingTime: 600 }, distribution: { epochIdentifier: "hour", rewardsPerEpoch: "10000000000000000000" } } },
});
`,
  "test-staking/staking.test.ts": `import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { network } from "hardhat";
describe("the staking and distribution precompiles on Hardhat 3", async () => {
  const { ethers, epochs } = await network.create();
  it("delegates through the precompile and sees the hour's rewards through connection.epochs.cosmos", async () => {
    const [operator, alice] = await ethers.getSigners();
    const validator = await epochs.cosmos.valoper(operator.address);
    assert.match(validator, /^cosmosvaloper1/);
    // the package's IStaking, built by the plugin (no npmFilesToBuild in the config)
    const staking = await ethers.getContractAt("IStaking", "0x0000000000000000000000000000000000000800", alice);
    await (await staking.delegate(alice.address, validator, 10n ** 20n)).wait();
    const [delegation] = await epochs.cosmos.delegations(alice.address);
    assert.equal(delegation.balance.amount, String(10n ** 20n));
    await epochs.advance("hour");
    // 10 coins: 9.8 after the community tax, 8.82 after 10 % commission, shared by 1,100 tokens; Alice's 100
    const { total } = await epochs.cosmos.rewards(alice.address);
    assert.equal(total[0].amount, "801818181818181800.000000000000000000");
  });
});
`,
  "hardhat.node.config.ts": `import { defineConfig } from "hardhat/config";
import hardhatEpochs from "hardhat-epochs";
export default defineConfig({
  plugins: [hardhatEpochs],
  solidity: "0.8.30",
  // the team's own mnemonic: the node must not print its keys
  epochs: { tickRule: "evmos", genesis: { epochs: [{ identifier: "hour", duration: 3600 }] }, network: { accounts: { mnemonic: "candy maple cake sugar pudding cream honey rich smooth crumble sweet treat", count: 3 } } },
  networks: { localhost: { type: "http", url: process.env.LOCALHOST_URL ?? "http://127.0.0.1:8545" } },
});
`,
  // forking in-process: the remote and its block come from the environment (the test's node)
  "hardhat.fork.config.ts": `import { defineConfig } from "hardhat/config";
import hardhatEpochs from "hardhat-epochs";
export default defineConfig({
  plugins: [hardhatEpochs],
  solidity: "0.8.30",
  epochs: { network: { forking: { url: process.env.FORK_URL ?? "", blockNumber: 1 } } },
});
`,
  // a dev method that needs the node's bearer token, through --network localhost (the plugin adds it)
  "scripts/save-state.ts": `import { network } from "hardhat";
const { epochs } = await network.create();
console.log("saved", (await epochs.saveState()).length > 0);
`,
  "scripts/forked.ts": `import { network } from "hardhat";
const { provider } = await network.create();
console.log("block", await provider.request({ method: "eth_blockNumber" }));
console.log("balance", await provider.request({ method: "eth_getBalance", params: [process.env.WATCH, "latest"] }));
`,
  // viem, its assertions and Ignition (hardhat-toolbox-viem's parts), on the epochs chain
  "contracts/Counter.sol": `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;
contract Counter {
    uint256 public x;
    event Increment(uint256 by);
    error TooBig(uint256 by);
    function incBy(uint256 by) public {
        require(by > 0, "incBy: increment should be positive");
        if (by > 100) revert TooBig(by);
        x += by;
        emit Increment(by);
    }
}
`,
  "hardhat.viem.config.ts": `import { defineConfig } from "hardhat/config";
import hardhatViem from "@nomicfoundation/hardhat-viem";
import hardhatViemAssertions from "@nomicfoundation/hardhat-viem-assertions";
import hardhatIgnitionViem from "@nomicfoundation/hardhat-ignition-viem";
import hardhatNodeTestRunner from "@nomicfoundation/hardhat-node-test-runner";
import hardhatNetworkHelpers from "@nomicfoundation/hardhat-network-helpers";
import hardhatEpochs from "hardhat-epochs";
export default defineConfig({
  plugins: [hardhatViem, hardhatViemAssertions, hardhatIgnitionViem, hardhatNodeTestRunner, hardhatNetworkHelpers, hardhatEpochs],
  solidity: "0.8.30",
  paths: { tests: { nodejs: "test-viem" } },
  // 31337: Ignition treats that chain as a throwaway one (no confirmation, an earlier chain's journal discarded)
  epochs: { genesis: { epochs: [{ identifier: "hour", duration: 3600 }] }, network: { chainId: 31337 } },
  networks: { localhost: { type: "http", url: process.env.LOCALHOST_URL ?? "http://127.0.0.1:8545" } },
});
`,
  "ignition/modules/Counter.ts": `import { buildModule } from "@nomicfoundation/hardhat-ignition/modules";
export default buildModule("CounterModule", (m) => {
  const counter = m.contract("Counter");
  m.call(counter, "incBy", [5n]);
  return { counter };
});
`,
  "test-viem/counter.test.ts": `import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { network } from "hardhat";
describe("viem on the epochs chain", async () => {
  const { viem, epochs } = await network.create();
  it("deploys, emits, reads and reverts as viem users expect; epochs advance", async () => {
    const publicClient = await viem.getPublicClient();
    assert.equal(await publicClient.getChainId(), 31337);
    const counter = await viem.deployContract("Counter");
    await viem.assertions.emitWithArgs(counter.write.incBy([5n]), counter, "Increment", [5n]);
    assert.equal(await counter.read.x(), 5n);
    await viem.assertions.revertWith(counter.write.incBy([0n]), "incBy: increment should be positive");
    await viem.assertions.revertWithCustomErrorWithArgs(counter.write.incBy([500n]), counter, "TooBig", [500n]);
    const [wallet, other] = await viem.getWalletClients();
    await viem.assertions.balancesHaveChanged(wallet.sendTransaction({ to: other.account.address, value: 10n ** 18n }), [{ address: other.account.address, amount: 10n ** 18n }]);
    const before = await epochs.current("hour");
    assert.equal(await epochs.advance("hour", 2), before + 2n);
  });
});
`,
  // the coverage and gas statistics differentials: the same tests on EDR (network "edr") and on the epochs chain (the default)
  "hardhat.cov.config.ts": `import { defineConfig } from "hardhat/config";
import hardhatEthers from "@nomicfoundation/hardhat-ethers";
import hardhatMocha from "@nomicfoundation/hardhat-mocha";
import hardhatEthersChaiMatchers from "@nomicfoundation/hardhat-ethers-chai-matchers";
import hardhatEpochs from "hardhat-epochs";
export default defineConfig({
  plugins: [hardhatEpochs, hardhatEthers, hardhatMocha, hardhatEthersChaiMatchers],
  solidity: "0.8.30",
  paths: { tests: { mocha: "test-cov" } },
  networks: { edr: { type: "edr-simulated" } },
});
`,
  "test-cov/counter.test.ts": `import { expect } from "chai";
import { network } from "hardhat";
const { ethers } = await network.create(process.env.COVERAGE_NETWORK || undefined);
describe("Counter", () => {
  it("counts, emits and refuses", async () => {
    const counter: any = await ethers.deployContract("Counter");
    await expect(counter.incBy(5)).to.emit(counter, "Increment").withArgs(5n);
    await expect(counter.incBy(0)).to.be.revertedWith("incBy: increment should be positive");
    expect(await counter.x()).to.equal(5n);
  });
  it("counts through a proxy", async () => {
    const counter: any = await ethers.deployContract("Counter");
    const forwarder = await ethers.deployContract("Forwarder", [await counter.getAddress()]);
    const proxied: any = counter.attach(await forwarder.getAddress());
    await (await proxied.incBy(7)).wait();
    await (await proxied.incBy(3)).wait();
    expect(await proxied.x()).to.equal(10n);
  });
});
`,
  // a proxy (the gas statistics differential calls through it)
  "contracts/Forwarder.sol": readFileSync(path.join(ROOT, "test/fixtures/solidity/Forwarder.sol"), "utf8"),
  "test-node/epochs.test.ts": `import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { network } from "hardhat";
describe("epochs under node:test", async () => {
  const { ethers, networkHelpers, epochs } = await network.create();
  it("runs the chain epochs.network describes", async () => {
    assert.equal(Number((await ethers.provider.getNetwork()).chainId), 31337);
    assert.equal((await ethers.getSigners()).length, 3);
    const latest = await networkHelpers.time.latest();
    await networkHelpers.time.setNextBlockTimestamp(latest);
    await networkHelpers.mine();
    assert.equal(await networkHelpers.time.latest(), latest);
  });
  it("advances the hour timer and loads a fixture", async () => {
    const before = await epochs.current("hour");
    assert.equal(await epochs.advance("hour", 3), before + 3n);
    const deployed = async () => ethers.deployContract("Logger");
    const logger: any = await networkHelpers.loadFixture(deployed);
    await logger.bump(2);
    assert.equal(await logger.n(), 2n);
  });
});
`,
};

describe("the package on Hardhat 3 (Node 22), installed from its tarball into a fresh project", function () {
  this.timeout(600_000);
  let work: string;
  let project: string;
  let node: Started | undefined;
  const env = npmChildEnv();

  /** The environment with Node 22 first on PATH (nodeBin): this file runs some forty commands on it. */
  let env22: NodeJS.ProcessEnv = env;

  /** A shell command on Node 22 (or `node`, through npx) in the project, bounded in time; returns stdout + stderr, failing with them on a non-zero exit. */
  const on22 = (command: string, extraEnv: Record<string, string> = {}, node = NODE): string => {
    const [file, args] = node === NODE ? ["sh", ["-c", command]] : ["npx", ["-y", "-p", node, "-c", command]];
    const r: SpawnSyncReturns<string> = spawnSync(file, args, { cwd: project, env: { ...env22, ...extraEnv }, encoding: "utf8", timeout: 300_000 });
    const out = `${r.stdout}${r.stderr}`;
    if (r.status !== 0) throw new Error(`${command} exited ${r.status ?? r.signal}:\n${out}`);
    return out;
  };
  const hardhat = (args: string, extraEnv: Record<string, string> = {}): string => on22(`./node_modules/.bin/hardhat ${args}`, extraEnv);

  before(function () {
    work = mkdtempSync(path.join(tmpdir(), "epochs-hh3-"));
    // the example as it stands: its hardhat-epochs is ../../<the tarball>, as `npm pack` at the root writes it
    const packed = packTarball();
    project = path.join(work, "examples", "weekly-rewards-hardhat3");
    cpSync(EXAMPLE, project, { recursive: true, filter: (src) => !/[/\\](node_modules|cache|artifacts)$/.test(src) });
    copyFileSync(packed.file, path.join(work, packed.filename));
    const pkgFile = path.join(project, "package.json");
    const pkg = JSON.parse(readFileSync(pkgFile, "utf8")) as { devDependencies: Record<string, string> };
    // node:test through Hardhat 3's runner, with its own config (the example uses mocha)
    pkg.devDependencies["@nomicfoundation/hardhat-node-test-runner"] = "^3.1.0";
    // viem and Ignition, as hardhat-toolbox-viem 5 has them
    Object.assign(pkg.devDependencies, {
      "@nomicfoundation/hardhat-viem": "^3.0.9",
      "@nomicfoundation/hardhat-viem-assertions": "^3.1.3",
      "@nomicfoundation/hardhat-ignition": "^3.1.8",
      "@nomicfoundation/hardhat-ignition-viem": "^3.1.6",
      "@nomicfoundation/ignition-core": "^3.1.6",
      viem: "^2.47.6",
    });
    writeFileSync(pkgFile, JSON.stringify(pkg, null, 2));
    for (const [file, text] of Object.entries(EXTRA_FILES)) {
      mkdirSync(path.dirname(path.join(project, file)), { recursive: true });
      writeFileSync(path.join(project, file), text);
    }
    // the repository's cheatcode suite, its interface imported from the installed package
    mkdirSync(path.join(project, "test-solidity", "solidity"), { recursive: true });
    for (const f of ["Vm.sol", "TestBase.sol", "Target.sol", "Cheats.t.sol", "EpochStakingVault.t.sol"]) {
      // their imports of the repository's contracts/ become the installed package's
      const text = readFileSync(path.join(SOLIDITY_TESTS, f), "utf8").replace(/"\.\.\/\.\.\//g, '"hardhat-epochs/contracts/');
      writeFileSync(path.join(project, "test-solidity", "solidity", f), text);
    }
    env22 = { ...env, PATH: `${nodeBin(NODE)}${path.delimiter}${env.PATH ?? ""}` };
    on22("npm install --prefer-offline --no-audit --no-fund");
  });

  after(async () => {
    await stopProcessGroup(node?.child);
    // a node stopped last may still be writing its state at exit (its process group outlives its shell briefly)
    if (work !== undefined) rmSync(work, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
  });

  it("runs on Node 22 with Hardhat 3", () => {
    expect(on22("node --version")).to.match(/^v22\./m);
    expect(hardhat("--version")).to.match(/^3\.\d+\.\d+/m);
  });

  it("builds offline with the npm solc (the example's contract, Logger, RefusingHook, Counter, Forwarder, and the package's 13 interfaces)", () => {
    // the package's contracts/*.sol and contracts/precompiles/*.sol get artifacts without npmFilesToBuild in the config
    expect(hardhat("build")).to.match(/Compiled 18 Solidity files with solc 0\.8\.30/);
  });

  it("type-checks: connection.epochs and the epochs config are typed from the package's declarations", () => {
    on22("./node_modules/.bin/tsc --noEmit -p .");
  });

  it("runs the example's mocha tests on the in-process epochs chain, console.log printed", () => {
    const out = hardhat("test mocha");
    expect(out, out).to.match(/8 passing/);
    expect(out).to.not.match(/failing/);
    expect(out).to.match(/^bump by 3 from 0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266$/m);
  });

  for (const profile of ["evmos", "cosmos-evm"]) {
    it(`runs Solidity tests on the epochs chain under ${profile} (\`test solidity\` with epochs.solidityTests): every cheatcode's test, the Cosmos vault, a week's end paying stakers`, () => {
      const out = hardhat("--config hardhat.solidity.config.ts test solidity", { EPOCHS_SOLIDITY_TEST_VALUE: "from-env", EPOCHS_PROFILE: profile });
      expect(out).to.include("Running Solidity tests on the epochs chain");
      expect(out).to.include("test-solidity/WeeklyRewards.t.sol:WeeklyRewardsTest");
      expect(out).to.match(/✔ test_aWeekEndPaysStakers\(\)/);
      expect(out).to.match(/✔ test_onlyTheChainClosesAWeek\(\)/);
      expect(out).to.match(/✔ testFuzz_stakesAddUp\(uint96\) \(runs: 16\)/);
      expect(out).to.match(/✔ test_aDaysEndClaimsRewardsInTheHook\(\)/);
      // the repository's own suites (contracts/test/solidity/): every supported cheatcode, and the Cosmos vault
      const count = (f: string): number => [...readFileSync(path.join(SOLIDITY_TESTS, f), "utf8").matchAll(/function (test\w*)\(/g)].length;
      expect(out).to.include("test-solidity/solidity/Cheats.t.sol:CheatsTest");
      expect(out).to.match(new RegExp(`\\n\\s+${count("Cheats.t.sol") + count("EpochStakingVault.t.sol") + 3} passing\\n`));
      expect(out).to.not.match(/failing/);
    });
  }

  it("runs the same mocha tests on Node 24", () => {
    const out = on22("node --version && ./node_modules/.bin/hardhat test mocha", {}, "node@24");
    expect(out).to.match(/^v24\./m);
    expect(out, out).to.match(/8 passing/);
    expect(out).to.not.match(/failing/);
  });

  it("runs node:test tests through Hardhat 3's runner", () => {
    const out = hardhat("--config hardhat.node-test.config.ts test nodejs");
    expect(out).to.match(/2 passing/);
    expect(out).to.match(/^bump by 2 from 0x/m);
    expect(out).to.not.match(/failing/);
  });

  it("runs viem tests (hardhat-viem, hardhat-viem-assertions) on the in-process epochs chain", () => {
    const out = hardhat("--config hardhat.viem.config.ts test nodejs");
    expect(out).to.match(/1 passing/);
    expect(out).to.not.match(/failing/);
  });

  it("runs the Cosmos staking precompiles on Hardhat 3: epochs.precompiles config, connection.epochs.cosmos", () => {
    const out = hardhat("--config hardhat.staking.config.ts test nodejs");
    expect(out).to.match(/1 passing|pass 1/);
    expect(out).to.not.match(/failing|fail [1-9]/);
  });

  it("collects coverage on the epochs chain (`test mocha --coverage`): the lines an epoch hook ran count, a contract no test calls does not", () => {
    const out = hardhat("test mocha --coverage");
    expect(out, out).to.match(/8 passing/);
    const lcov = readFileSync(path.join(project, "coverage", "lcov.info"), "utf8");
    const record = (file: string): string => lcov.split("end_of_record").find((r) => r.includes(`SF:${file}\n`)) ?? expect.fail(`no ${file} in lcov.info:\n${lcov}`);
    // this line runs only inside afterEpochEnd, which only the chain calls (at the end of a week)
    const source = readFileSync(path.join(project, "contracts", "WeeklyRewards.sol"), "utf8").split("\n");
    const hookLine = source.findIndex((l) => l.includes("rewardPerStake += (rewardPerWeek * SCALE) / totalStaked;")) + 1;
    expect(hookLine).to.be.greaterThan(0);
    expect(record("contracts/WeeklyRewards.sol")).to.match(new RegExp(`^DA:${hookLine},[1-9]\\d*$`, "m"));
    // Counter is compiled and instrumented, but the mocha tests never call it
    const counter = record("contracts/Counter.sol");
    expect(counter).to.match(/^DA:\d+,0$/m);
    expect(counter).to.not.match(/^DA:\d+,[1-9]/m);
  });

  it("writes the same lcov.info with the epochs chain as with EDR for tests that do not use epochs", () => {
    const lcovOn = (network: string): string => {
      rmSync(path.join(project, "coverage"), { recursive: true, force: true });
      const out = hardhat("--config hardhat.cov.config.ts test mocha --coverage", { COVERAGE_NETWORK: network });
      expect(out, out).to.match(/2 passing/);
      return readFileSync(path.join(project, "coverage", "lcov.info"), "utf8");
    };
    const edr = lcovOn("edr");
    expect(edr).to.match(/^SF:contracts\/Counter\.sol$/m);
    expect(lcovOn("")).to.equal(edr);
  });

  it("reports gas statistics on the epochs chain (`test mocha --gas-stats`), the epoch hooks' calls listed", () => {
    const out = hardhat("test mocha --gas-stats");
    expect(out, out).to.match(/8 passing/);
    const table = out.slice(out.indexOf("Gas Usage Statistics"));
    expect(table, out).to.include("contracts/WeeklyRewards.sol:WeeklyRewards");
    // a row per function called: by the tests (stake, claim), and by the chain at each week's end and start
    for (const fn of ["stake", "claim", "afterEpochEnd", "beforeEpochStart"]) expect(table, out).to.match(new RegExp(`║ ${fn} +│ \\d+`));
    expect(table).to.match(/║ Deployment /);
  });

  it("writes the same --gas-stats-json with the epochs chain as with EDR (deployments, transactions, calls, a proxy) for tests that do not use epochs", () => {
    const statsOn = (network: string): unknown => {
      const file = path.join(work, `gas-${network || "epochs"}.json`);
      const out = hardhat(`--config hardhat.cov.config.ts test mocha --gas-stats-json ${file}`, { COVERAGE_NETWORK: network });
      expect(out, out).to.match(/2 passing/);
      return JSON.parse(readFileSync(file, "utf8"));
    };
    const edr = statsOn("edr") as { contracts: Record<string, unknown> };
    expect(Object.keys(edr.contracts)).to.include.members(["contracts/Counter.sol:Counter", "contracts/Counter.sol:Counter (via contracts/Forwarder.sol:Forwarder)"]);
    expect(statsOn("")).to.deep.equal(edr);
  });

  it("deploys with Ignition in-process, a fresh chain each run", () => {
    for (let run = 0; run < 2; run++) {
      const out = hardhat("--config hardhat.viem.config.ts ignition deploy ignition/modules/Counter.ts");
      expect(out, `run ${run}`).to.match(/successfully deployed/);
      expect(out).to.match(/CounterModule#Counter - 0x5FbDB2315678afecb367f032d93F642f64180aa3/);
    }
  });

  it("makes, imports and lists keys of a node home (keys:new, keys:import, keys:list)", () => {
    const home = path.join(work, "keys-home");
    writeFileSync(path.join(work, "pass.txt"), "correct horse\n");
    // Hardhat's first dev key, as geth's `account import` takes it
    writeFileSync(path.join(work, "key.txt"), "ac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80\n");
    const made = hardhat(`keys:new --home ${home} --passphrase-file ${path.join(work, "pass.txt")} --light-kdf`);
    const address = /Public address of the key:\s+(0x[0-9a-fA-F]{40})/.exec(made)?.[1];
    expect(address, made).to.be.a("string");
    hardhat(`keys:import --home ${home} --key-file ${path.join(work, "key.txt")} --passphrase-file ${path.join(work, "pass.txt")} --light-kdf`);
    const list = hardhat(`keys:list --home ${home}`);
    expect(list).to.include(`{${address!.slice(2).toLowerCase()}}`);
    expect(list).to.include("{f39fd6e51aad88f6f4ce6ab8827279cfffb92266}");
    expect(() => hardhat("keys:list")).to.throw(/hardhat-epochs: --home DIR is required/);
  });

  it("lists the epochs in-process (hardhat epochs:list)", () => {
    const out = hardhat("epochs:list");
    expect(out).to.match(/^week\s+604800s\s+0\s/m);
    expect(out).to.match(/^day\s+86400s\s+0\s/m);
  });

  it("exports the epochs as a Cosmos genesis (hardhat epochs:export-genesis)", () => {
    const out = hardhat("epochs:export-genesis --out genesis.json");
    expect(out).to.match(/^wrote evmos_9000-1's genesis \(2 epochs, 0 contracts\) to genesis\.json$/m);
    const genesis = JSON.parse(readFileSync(path.join(project, "genesis.json"), "utf8")) as {
      chain_id: string;
      app_state: { epochs: { epochs: Array<{ identifier: string; duration: string }> }; bank: { balances: unknown[] } };
    };
    expect(genesis.chain_id).to.equal("evmos_9000-1");
    // the dev accounts' balances travel as the native coin's bank balances
    expect(genesis.app_state.bank.balances).to.have.length(20);
    expect(genesis.app_state.epochs.epochs.map((e) => [e.identifier, e.duration])).to.deep.equal([
      ["day", "86400s"],
      ["week", "604800s"],
    ]);
  });

  it("serves `hardhat node`: epochs:current with --network localhost", async () => {
    const port = await freePort();
    node = await startNodeProcess("sh", ["-c", `./node_modules/.bin/hardhat node --port ${port} --json-rpc-ws-address 127.0.0.1:0`], { cwd: project, env: env22 });
    await waitForOutput(node, "Accounts");
    expect(node.output()).to.not.match(/beyond loopback/);
    // Hardhat's default mnemonic: its keys are public, printed under the warning
    await waitForOutput(node, "Account #19: ");
    expect(node.output()).to.include("Private Key: 0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80");
    const out = hardhat("epochs:current --identifier week --network localhost", { LOCALHOST_URL: node.url });
    expect(out).to.match(/^week: current epoch 0$/m);
    // the same over the node's REST (Evmos's paths)
    expect(hardhat(`epochs:current --identifier week --rest ${node.url}`)).to.match(/^week: current epoch 0$/m);
    // a config whose localhost has no URL of its own goes where this project's node listens (not 8545), and says so
    const followed = hardhat("--config hardhat.node-test.config.ts epochs:current --identifier week --network localhost");
    expect(followed).to.match(/^week: current epoch 0$/m);
    expect(followed).to.include(`localhost: this project's node, at http://127.0.0.1:${port} (its record in ${path.join(project, "cache")}; set networks.localhost.url to choose)`);
    // hardhat_dumpState needs the node's token: --network localhost carries it, as on Hardhat 2
    expect(hardhat("--config hardhat.node-test.config.ts run scripts/save-state.ts --network localhost")).to.match(/^saved true$/m);
    await stopProcessGroup(node.child);
    // the same with --home: the token is the home's
    node = await startNodeProcess(
      "sh",
      ["-c", `./node_modules/.bin/hardhat --config hardhat.node-test.config.ts node --home ${path.join(project, ".home")} --port ${port} --json-rpc-ws-address 127.0.0.1:0`],
      { cwd: project, env: env22 },
    );
    await waitForOutput(node, "Accounts");
    expect(hardhat("--config hardhat.node-test.config.ts run scripts/save-state.ts --network localhost")).to.match(/^saved true$/m);
    await stopProcessGroup(node.child);
    // the config's epochs section reaches the node: another config, with Evmos's tick rule and an hour timer
    node = await startNodeProcess("sh", ["-c", `./node_modules/.bin/hardhat --config hardhat.node.config.ts node --port ${port} --json-rpc-ws-address 127.0.0.1:0`], { cwd: project, env: env22 });
    await waitForOutput(node, 'epochs tick rule "evmos"');
    // a team's own mnemonic: accounts listed, no key printed (src/host/node/account-banner.ts)
    await waitForOutput(node, "Account #2: ");
    expect(node.output()).to.not.include("Private Key");
    expect(node.output()).to.not.include("publicly known");
    const hour = hardhat("--config hardhat.node.config.ts epochs:list --network localhost", { LOCALHOST_URL: node.url });
    expect(hour).to.match(/^hour\s+3600s\s+0\s/m);
    expect(hour).to.not.match(/^week/m);
    await stopProcessGroup(node.child);
    // Ignition and viem against the node
    node = await startNodeProcess("sh", ["-c", `./node_modules/.bin/hardhat --config hardhat.viem.config.ts node --port ${port} --json-rpc-ws-address 127.0.0.1:0`], { cwd: project, env: env22 });
    await waitForOutput(node, "Accounts");
    const deployed = hardhat("--config hardhat.viem.config.ts ignition deploy ignition/modules/Counter.ts --network localhost", { LOCALHOST_URL: node.url });
    expect(deployed).to.match(/successfully deployed/);
    // the node's log tells the deployment, naming the contract from the project's build
    await waitForOutput(node, "Contract deployment: Counter");
    expect(hardhat("--config hardhat.viem.config.ts test nodejs --network localhost", { LOCALHOST_URL: node.url })).to.match(/1 passing/);
    await stopProcessGroup(node.child);
    // --profile cosmos-evm: the Cosmos SDK's x/epochs (its REST paths; its tick rule unless the config sets one)
    node = await startNodeProcess("sh", ["-c", `./node_modules/.bin/hardhat node --profile cosmos-evm --port ${port} --json-rpc-ws-address 127.0.0.1:0`], { cwd: project, env: env22 });
    await waitForOutput(node, 'profile "cosmos-evm"');
    const res = await fetch(`${node.url}cosmos/epochs/v1beta1/current_epoch?identifier=week`);
    expect(await res.json()).to.deep.equal({ current_epoch: "0" });
    // the tasks read the Cosmos SDK's REST form too
    expect(hardhat(`epochs:list --rest ${node.url}`)).to.match(/^week\s+604800s\s+0\s/m);
    const coinbase = (await (
      await fetch(node.url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_coinbase", params: [] }) })
    ).json()) as { error?: { code: number } };
    expect(coinbase.error?.code).to.equal(-32601);
    await stopProcessGroup(node.child);
  });

  it("`hardhat node --help` tells the epochs chain's node: its description, Evmos's booleans as booleans, Anvil's flags", () => {
    const help = hardhat("node --help");
    expect(help).to.include("Starts the epochs chain (hardhat-epochs) with HTTP and WebSocket JSON-RPC servers");
    expect(help).to.not.include("on top of Hardhat Network");
    expect(help).to.include("[--json-rpc-log <BOOLEAN>]");
    expect(help).to.not.match(/--json-rpc-(log|enable|allow-insecure-unlock) <STRING_WITHOUT_DEFAULT>/);
    expect(help).to.match(/--json-rpc-enable\s.*\(true or false\) \(default: true\)/);
    expect(help).to.match(/--json-rpc-log\s.*\(true or false\) \(default: false\)/);
    expect(help).to.not.include("(default: )");
    for (const flag of ["--block-time", "--accounts", "--mnemonic", "--balance", "--chain-id"]) expect(help).to.include(flag);
    expect(() => hardhat("node --chain-type op --port 0")).to.throw(/--chain-type does not apply to the epochs chain/);
  });

  it("`hardhat node` takes Anvil's chain flags and Evmos's booleans written `--json-rpc-log true`", async () => {
    const port = await freePort();
    node = await startNodeProcess("sh", ["-c", `./node_modules/.bin/hardhat node --port ${port} --json-rpc-ws-address 127.0.0.1:0 --chain-id 777 --accounts 2 --balance 5 --json-rpc-log true`], {
      cwd: project,
      env: env22,
    });
    await waitForOutput(node, "Account #1: ");
    expect(node.output()).to.not.include("Account #2: ");
    const call = async (method: string, params: unknown[] = []): Promise<unknown> =>
      (
        (await (await fetch(node!.url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }) })).json()) as {
          result: unknown;
        }
      ).result;
    expect(await call("eth_chainId")).to.equal("0x309");
    const [first] = (await call("eth_accounts")) as string[];
    expect(await call("eth_getBalance", [first, "latest"])).to.equal(`0x${(5n * 10n ** 18n).toString(16)}`);
    // json-rpc.log: every request and its answer in full
    await waitForOutput(node, `eth_getBalance ← {"result":"0x${(5n * 10n ** 18n).toString(16)}"}`);
    await stopProcessGroup(node.child);
  });

  it("forks a chain: `hardhat node --fork --fork-block-number --fork-rest`, and epochs.network.forking in-process", async () => {
    const rpc = async (url: string, method: string, params: unknown[] = []): Promise<unknown> =>
      ((await (await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }) })).json()) as { result: unknown })
        .result;
    const watch = "0x00000000000000000000000000000000000f0a4c";
    node = await startNodeProcess("sh", ["-c", `./node_modules/.bin/hardhat node --port ${await freePort()} --json-rpc-ws-address 127.0.0.1:0`], { cwd: project, env: env22 });
    await waitForOutput(node, "Accounts");
    const remote = node;
    // the remote stops whatever happens below (a later test reuses `node`)
    try {
      const [from] = (await rpc(remote.url, "eth_accounts")) as string[];
      // block 1 pays the watched address; block 2 pays it again, after the fork block
      for (let i = 0; i < 2; i++) await rpc(remote.url, "eth_sendTransaction", [{ from, to: watch, value: "0x3e8" }]);
      expect(await rpc(remote.url, "eth_blockNumber")).to.equal("0x2");
      let forked: Started | undefined;
      try {
        forked = await startNodeProcess(
          "sh",
          ["-c", `./node_modules/.bin/hardhat node --port ${await freePort()} --json-rpc-ws-address 127.0.0.1:0 --fork ${remote.url} --fork-block-number 1 --fork-rest ${remote.url}`],
          { cwd: project, env: env22 },
        );
        await waitForOutput(forked, "Accounts");
        expect(forked.output()).to.match(/^Forked chain 9000 at block 1 \(0x[0-9a-f]{64}\) from /m);
        expect(await rpc(forked.url, "eth_blockNumber")).to.equal("0x1");
        expect(await rpc(forked.url, "eth_getBalance", [watch, "latest"])).to.equal("0x3e8");
        // the epochs genesis is the remote's at the fork block (its REST)
        const week = (url: string): string | undefined => /^week\s.*$/m.exec(hardhat("epochs:list --network localhost", { LOCALHOST_URL: url }))?.[0];
        const forkedWeek = week(forked.url);
        // week 1 started at block 1 on the remote: the fork has that epoch, not a fresh timer of its own
        expect(forkedWeek).to.match(/^week\s+604800s\s+1\s+\S+\s+1\s+yes\s/);
        expect(forkedWeek).to.equal(week(remote.url));
      } finally {
        await stopProcessGroup(forked?.child);
      }
      const inProcess = hardhat("--config hardhat.fork.config.ts run scripts/forked.ts", { FORK_URL: remote.url, WATCH: watch });
      expect(inProcess).to.match(/^block 0x1$/m);
      expect(inProcess).to.match(/^balance 0x3e8$/m);
      expect(() => hardhat("node --json-rpc-ws-address 127.0.0.1:0 --fork ws://127.0.0.1:1")).to.throw(
        /hardhat-epochs: invalid --fork "ws:\/\/127\.0\.0\.1:1": expected an http:\/\/ or https:\/\/ JSON-RPC URL/,
      );
    } finally {
      await stopProcessGroup(remote.child);
    }
  });

  it("keeps the chain in a --home across restarts, and saves state with --state", async () => {
    const port = await freePort();
    const call = async (method: string): Promise<unknown> =>
      (
        (await (await fetch(node!.url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params: [] }) })).json()) as {
          result: unknown;
        }
      ).result;
    const start = async (flags: string): Promise<void> => {
      node = await startNodeProcess("sh", ["-c", `./node_modules/.bin/hardhat node --port ${port} --json-rpc-ws-address 127.0.0.1:0 ${flags}`], { cwd: project, env: env22 });
      await waitForOutput(node, "Accounts");
    };
    const home = path.join(work, "node-home");
    await start(`--home ${home}`);
    await call("evm_mine");
    await call("evm_mine");
    await stopProcessGroup(node!.child);
    await start(`--home ${home}`);
    expect(await call("eth_blockNumber")).to.equal("0x2");
    expect(readFileSync(path.join(home, "config", "app.toml"), "utf8")).to.match(/^profile = "evmos"$/m);
    await stopProcessGroup(node!.child);
    const state = path.join(work, "state.json");
    await start(`--state ${state}`);
    await call("evm_mine");
    await stopProcessGroup(node!.child); // SIGTERM: the state is written at exit
    await start(`--state ${state}`);
    expect(node!.output()).to.include(`Loaded the state in ${state} (block 1)`);
    expect(await call("eth_blockNumber")).to.equal("0x1");
    await stopProcessGroup(node!.child);
  });
});
