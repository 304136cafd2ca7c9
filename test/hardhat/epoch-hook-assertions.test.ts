/**
 * The node:test-style hook assertions (`hre.epochs.assertions`, src/host/helpers/hook-assertions.ts),
 * with viem contracts as hardhat-viem-assertions takes them, and the chai matchers taking a viem
 * contract too: a hook called, a hook failed with a custom error and its arguments, with a reason;
 * failures are node's AssertionError with the advance's hook calls in the message.
 */
import { AssertionError } from "node:assert";
import { expect } from "chai";
import hre, { ethers } from "hardhat";
import { type SnapshotRestorer, takeSnapshot } from "@nomicfoundation/hardhat-network-helpers";

/** viem is ESM: loaded as test/rpc/clients.test.ts loads it. */
const loadViem = () => import("viem");

const MODE = { Reason: 0, Custom: 1 } as const;

async function thrown(p: Promise<unknown>): Promise<Error> {
  try {
    await p;
  } catch (err) {
    return err as Error;
  }
  throw new Error("expected the assertion to fail");
}

describe("epoch hook assertions for node:test and viem (hre.epochs.assertions)", function () {
  let snapshot: SnapshotRestorer;
  beforeEach(async () => {
    snapshot = await takeSnapshot();
    for (const address of await hre.epochs.hooks()) await hre.epochs.unregisterHooks(address);
  });
  afterEach(async () => {
    await snapshot.restore();
  });

  /** A FailingHook deployed, as viem's getContract gives it: `address` and `abi`. */
  const deploy = async (mode: number) => {
    const { createPublicClient, custom, getContract } = await loadViem();
    const client = createPublicClient({ transport: custom(hre.network.provider) });
    const c = await ethers.deployContract("FailingHook", [mode]);
    const { abi } = await hre.artifacts.readArtifact("FailingHook");
    return getContract({ address: (await c.getAddress()) as `0x${string}`, abi, client });
  };

  it("hookCalled / hookFailed / noHookFailed take a viem contract or an address", async () => {
    const { assertions } = hre.epochs;
    const hook = await deploy(MODE.Reason);
    await assertions.hookCalled(hre.epochs.advance("day"), hook, "beforeEpochStart");
    await assertions.hookCalled(hre.epochs.advance("day"), hook.address);
    const e = await thrown(assertions.hookCalled(hre.epochs.advance("day"), hook, "afterEpochEnd"));
    expect(e).to.be.instanceOf(AssertionError);
    expect(e.message).to.match(/^expected the advance to call 0x[0-9a-fA-F]{40}'s afterEpochEnd successfully, but its hook calls were:/);
    expect(e.message).to.include("reverted with reason string 'FailingHook: not now'");
    expect((await assertions.hookFailed(hre.epochs.advance("day"), hook, "afterEpochEnd")).map((c) => c.hook)).to.deep.equal(["afterEpochEnd"]);
    const quiet = await thrown(assertions.noHookFailed(hre.epochs.advance("day")));
    expect(quiet.message).to.match(/^expected a contract's epoch hook not to fail in the advance/);
    await assertions.hookFailedWith(hre.epochs.advance("day"), hook, "FailingHook: not now");
    const other = await thrown(assertions.hookFailedWith(hre.epochs.advance("day"), hook, "something else"));
    expect(other.message).to.match(/^expected the failed hook to revert with reason "something else", but: execution reverted: FailingHook: not now/);
    // a report works as the subject too
    await assertions.hookCalled(await hre.epochs.advanceWithReport("day"), hook, "beforeEpochStart");
    await expect(assertions.hookCalled(hre.epochs.advance("day"), { nothing: true } as never)).to.be.rejectedWith("expected a contract (an ethers or viem contract) or its address");
  });

  it("hookFailedWithCustomError decodes with the viem contract's ABI, arguments checked", async () => {
    const { assertions } = hre.epochs;
    const hook = await deploy(MODE.Custom);
    const ended = await hre.epochs.current("day");
    // the epoch that ends is the current one
    await assertions.hookFailedWithCustomError(hre.epochs.advance("day"), hook, "HookRefused", ["day", ended]);
    await assertions.hookFailedWithCustomError(hre.epochs.advance("day"), hook, "HookRefused");
    const wrongArgs = await thrown(assertions.hookFailedWithCustomError(hre.epochs.advance("day"), hook, "HookRefused", ["week", 0]));
    expect(wrongArgs.message).to.match(/^expected the custom error's arguments to be \["week",0\], but they were \["day","\d+n"\]$/);
    const wrongName = await thrown(assertions.hookFailedWithCustomError(hre.epochs.advance("day"), hook, "Other"));
    expect(wrongName.message).to.equal("expected the failed hook to revert with custom error Other, but it reverted with HookRefused");
  });

  it("the chai matchers take a viem contract too", async () => {
    const hook = await deploy(MODE.Custom);
    await expect(hre.epochs.advance("day")).to.callEpochHook(hook, "beforeEpochStart");
    await expect(hre.epochs.advance("day")).to.failEpochHook(hook, "afterEpochEnd").withCustomError(hook, "HookRefused");
  });
});
