/**
 * The hook matchers users write tests with (src/host/helpers/epochs-matchers.ts), registered by the
 * plugin on the project's chai when `hardhat test` starts: `callEpochHook`, `failEpochHook` with
 * `withCustomError(…).withArgs(…)` and `withReason`, negated; and `hre.epochs.advanceWithReport`'s typed
 * report. Hardhat's own `withArgs` (after `.emit`) keeps working beside ours. And the node:test-style
 * assertions (`hre.epochs.assertions`) with viem contracts, as hardhat-viem-assertions takes them; the
 * matchers take a viem contract too.
 */
import { expect } from "chai";
import hre, { ethers } from "hardhat";
import { type SnapshotRestorer, takeSnapshot } from "@nomicfoundation/hardhat-network-helpers";
import type { Contract } from "ethers";
import { AssertionError } from "node:assert";

/** viem is ESM: loaded as test/rpc/clients.test.ts loads it. */
const loadViem = () => import("viem");

const MODE = { Reason: 0, Custom: 1 } as const;

/** The error a matcher's failed assertion throws. */
async function failure(assertion: PromiseLike<unknown>): Promise<Error> {
  try {
    await assertion;
  } catch (err) {
    return err as Error;
  }
  throw new Error("expected the assertion to fail");
}

describe("epoch hook matchers (hardhat test, in-process)", function () {
  let snapshot: SnapshotRestorer;
  beforeEach(async () => {
    snapshot = await takeSnapshot();
    // the suite's other files share this chain: hooks they left registered are not this file's (the snapshot brings them back)
    for (const address of await hre.epochs.hooks()) await hre.epochs.unregisterHooks(address);
  });
  afterEach(async () => {
    await snapshot.restore();
  });

  const deploy = async (mode: number) => (await ethers.deployContract("FailingHook", [mode])) as unknown as Contract;

  it("callEpochHook: the hook was called and succeeded; a failed one is told with every call of the advance", async () => {
    const hook = await deploy(MODE.Reason);
    // an advance of one day ends an epoch and starts the next: afterEpochEnd fails, beforeEpochStart works
    await expect(hre.epochs.advance("day")).to.callEpochHook(hook, "beforeEpochStart");
    await expect(hre.epochs.advance("day")).to.callEpochHook(await hook.getAddress());
    const e = await failure(expect(hre.epochs.advance("day")).to.callEpochHook(hook, "afterEpochEnd"));
    expect(e.message).to.match(/^expected the advance to call 0x[0-9a-fA-F]{40}'s afterEpochEnd successfully, but its hook calls were:/);
    expect(e.message).to.include(`${await hook.getAddress()} afterEpochEnd("day", `);
    expect(e.message).to.include("failed: VM Exception while processing transaction: reverted with reason string 'FailingHook: not now'");
    await expect(hre.epochs.advance("day")).not.to.callEpochHook(hook, "afterEpochEnd");
  });

  it("failEpochHook(…).withCustomError(…).withArgs(…): the decoded custom error and its arguments", async () => {
    const hook = await deploy(MODE.Custom);
    const ended = await hre.epochs.current("day");
    await expect(hre.epochs.advance("day")).to.failEpochHook(hook, "afterEpochEnd").withCustomError(hook, "HookRefused").withArgs("day", ended);
    const wrongArgs = await failure(expect(hre.epochs.advance("day")).to.failEpochHook(hook).withCustomError(hook, "HookRefused").withArgs("week", 0));
    expect(wrongArgs.message).to.match(/^expected the custom error's arguments to be \["week",0\], but they were \["day","\d+n"\]$/);
    const wrongName = await failure(expect(hre.epochs.advance("day")).to.failEpochHook(hook).withCustomError(hook, "Other"));
    expect(wrongName.message).to.equal("expected the failed hook to revert with custom error Other, but it reverted with HookRefused");
  });

  it("withReason, and not.to.failEpochHook() listing what failed", async () => {
    const hook = await deploy(MODE.Reason);
    await expect(hre.epochs.advance("day")).to.failEpochHook(hook, "afterEpochEnd").withReason("FailingHook: not now");
    const e = await failure(expect(hre.epochs.advance("day")).not.to.failEpochHook());
    expect(e.message).to.match(/^expected a contract's epoch hook not to fail in the advance, but its hook calls were:\n {2}0x/);
    await hre.epochs.unregisterHooks(await hook.getAddress());
    // no hook registered: nothing fails, nothing is called
    await expect(hre.epochs.advance("day")).not.to.failEpochHook();
    const none = await failure(expect(hre.epochs.advance("day")).to.failEpochHook());
    expect(none.message).to.match(/^expected a contract's epoch hook to fail in the advance, but the advance of "day" \(blocks \d+–\d+\) called no hook$/);
  });

  it("advanceWithReport: the blocks, ticks and hook calls of an advance, typed", async () => {
    const hook = await deploy(MODE.Custom);
    const before = await ethers.provider.getBlockNumber();
    const report = await hre.epochs.advanceWithReport("day");
    expect(report.identifier).to.equal("day");
    expect(report.epoch).to.equal(await hre.epochs.current("day"));
    expect(report.fromBlock).to.equal(BigInt(before + 1));
    expect(report.toBlock).to.equal(BigInt(await ethers.provider.getBlockNumber()));
    expect(report.ticks.map((t) => [t.type, t.identifier])).to.deep.include.members([
      ["epoch_end", "day"],
      ["epoch_start", "day"],
    ]);
    const failed = report.hooks.find((h) => !h.success);
    expect(failed).to.include({ contract: await hook.getAddress(), hook: "afterEpochEnd", identifier: "day", reason: "execution reverted" });
    expect(failed?.gasUsed).to.be.a("bigint").and.greaterThan(0n);
    expect(hook.interface.parseError(failed?.revertData as string)?.name).to.equal("HookRefused");
    expect(failed?.stack?.[0]).to.match(/^at FailingHook\.afterEpochEnd \(contracts\/test\/FailingHook\.sol:\d+\)$/);
    expect(report.hooks.find((h) => h.success)).to.include({ contract: await hook.getAddress(), hook: "beforeEpochStart", epoch: report.epoch });
    // and the matchers take a report as they take an advance
    await expect(report).to.failEpochHook(hook).withCustomError(hook, "HookRefused");
  });

  it("Hardhat's own withArgs still answers after .emit; a subject that is not an advance is refused", async () => {
    const [me, other] = await ethers.getSigners();
    const token = await ethers.deployContract("Token", ["T", "T", 10n]);
    await expect(token.transfer(other.address, 1n)).to.emit(token, "Transfer").withArgs(me.address, other.address, 1n);
    const e = await failure(expect(Promise.resolve(3n)).to.callEpochHook(token));
    expect(e.message).to.equal("expected the promise epochs.advance(…) returned, or a report of epochs.advanceWithReport(…)");
  });

  // node:test and viem: hre.epochs.assertions (src/host/helpers/hook-assertions.ts), sharing the matchers' checks

  /** A FailingHook deployed, as viem's getContract gives it: `address` and `abi`. */
  const deployViem = async (mode: number) => {
    const { createPublicClient, custom, getContract } = await loadViem();
    const client = createPublicClient({ transport: custom(hre.network.provider) });
    const { abi } = await hre.artifacts.readArtifact("FailingHook");
    return getContract({ address: (await (await deploy(mode)).getAddress()) as `0x${string}`, abi, client });
  };

  it("hookCalled / hookFailed / noHookFailed take a viem contract or an address", async () => {
    const { assertions } = hre.epochs;
    const hook = await deployViem(MODE.Reason);
    await assertions.hookCalled(hre.epochs.advance("day"), hook, "beforeEpochStart");
    await assertions.hookCalled(hre.epochs.advance("day"), hook.address);
    const e = await failure(assertions.hookCalled(hre.epochs.advance("day"), hook, "afterEpochEnd"));
    expect(e).to.be.instanceOf(AssertionError);
    expect(e.message).to.match(/^expected the advance to call 0x[0-9a-fA-F]{40}'s afterEpochEnd successfully, but its hook calls were:/);
    expect(e.message).to.include("reverted with reason string 'FailingHook: not now'");
    expect((await assertions.hookFailed(hre.epochs.advance("day"), hook, "afterEpochEnd")).map((c) => c.hook)).to.deep.equal(["afterEpochEnd"]);
    const quiet = await failure(assertions.noHookFailed(hre.epochs.advance("day")));
    expect(quiet.message).to.match(/^expected a contract's epoch hook not to fail in the advance/);
    await assertions.hookFailedWith(hre.epochs.advance("day"), hook, "FailingHook: not now");
    const other = await failure(assertions.hookFailedWith(hre.epochs.advance("day"), hook, "something else"));
    expect(other.message).to.match(/^expected the failed hook to revert with reason "something else", but: execution reverted: FailingHook: not now/);
    // a report works as the subject too
    await assertions.hookCalled(await hre.epochs.advanceWithReport("day"), hook, "beforeEpochStart");
    // a bad argument fails the assertion once the advance is done (it never goes on mining behind it)
    const blocks = await ethers.provider.getBlockNumber();
    await expect(assertions.hookCalled(hre.epochs.advance("day"), { nothing: true } as never)).to.be.rejectedWith("expected a contract (an ethers or viem contract) or its address");
    const after = await ethers.provider.getBlockNumber();
    expect(after).to.be.greaterThan(blocks);
    expect(await ethers.provider.getBlockNumber()).to.equal(after);
  });

  it("hookFailedWithCustomError decodes with the viem contract's ABI, arguments checked", async () => {
    const { assertions } = hre.epochs;
    const hook = await deployViem(MODE.Custom);
    const ended = await hre.epochs.current("day");
    // the epoch that ends is the current one
    await assertions.hookFailedWithCustomError(hre.epochs.advance("day"), hook, "HookRefused", ["day", ended]);
    await assertions.hookFailedWithCustomError(hre.epochs.advance("day"), hook, "HookRefused");
    const wrongArgs = await failure(assertions.hookFailedWithCustomError(hre.epochs.advance("day"), hook, "HookRefused", ["week", 0]));
    expect(wrongArgs.message).to.match(/^expected the custom error's arguments to be \["week",0\], but they were \["day","\d+n"\]$/);
    const wrongName = await failure(assertions.hookFailedWithCustomError(hre.epochs.advance("day"), hook, "Other"));
    expect(wrongName.message).to.equal("expected the failed hook to revert with custom error Other, but it reverted with HookRefused");
  });

  it("the chai matchers take a viem contract too", async () => {
    const hook = await deployViem(MODE.Custom);
    await expect(hre.epochs.advance("day")).to.callEpochHook(hook, "beforeEpochStart");
    await expect(hre.epochs.advance("day")).to.failEpochHook(hook, "afterEpochEnd").withCustomError(hook, "HookRefused");
  });
});
