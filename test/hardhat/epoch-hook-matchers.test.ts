/**
 * The hook matchers users write tests with (src/host/helpers/epochs-matchers.ts), registered by the
 * plugin on the project's chai when `hardhat test` starts: `callEpochHook`, `failEpochHook` with
 * `withCustomError(…).withArgs(…)` and `withReason`, negated; and `hre.epochs.advanceWithReport`'s typed
 * report. Hardhat's own `withArgs` (after `.emit`) keeps working beside ours.
 */
import { expect } from "chai";
import hre, { ethers } from "hardhat";
import { type SnapshotRestorer, takeSnapshot } from "@nomicfoundation/hardhat-network-helpers";
import type { Contract } from "ethers";

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
});
