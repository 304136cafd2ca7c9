/**
 * Contract tests in the style users write (`npx hardhat test`): contracts that rely on epoch hooks.
 */
import { expect } from "chai";
import hre, { ethers } from "hardhat";
import { loadFixture } from "@nomicfoundation/hardhat-network-helpers";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { EPOCHS_MODULE, parseCosmosGenesis } from "../../src/epochs";
import { createRuntime } from "../../src/app/runtime";
import { defaultChainConfig } from "../../src/chain/config";

const PRECOMPILE = "0x0000000000000000000000000000000000000900";

describe("epoch hooks reach contracts", function () {
  async function deployed() {
    const [gov, alice, bob] = await ethers.getSigners();
    const rewards = await ethers.deployContract("WeeklyRewards", [1000n]);
    const counter = await ethers.deployContract("DailyCounter");
    await (rewards.connect(alice) as typeof rewards).stake({ value: 3n });
    await (rewards.connect(bob) as typeof rewards).stake({ value: 1n });
    return { gov, alice, bob, rewards, counter };
  }

  it("registers contracts from their constructors, in order, through the precompile", async () => {
    const { rewards, counter } = await loadFixture(deployed);
    const epochs = await ethers.getContractAt("IEpochs", PRECOMPILE);
    const hooks = await epochs.hooks();
    expect(hooks.slice(-2)).to.deep.equal([await rewards.getAddress(), await counter.getAddress()]);
    // the helper answers addresses as ethers gives them: checksummed
    expect(await hre.epochs.hooks()).to.deep.equal([...hooks]);
    expect(await hre.epochs.hooks()).to.include(await counter.getAddress());
  });

  it("calls afterEpochEnd(week, n) and beforeEpochStart(week, n+1) on advance", async () => {
    const { rewards, alice, bob } = await loadFixture(deployed);
    const before = await hre.epochs.current("week");
    const next = await hre.epochs.advance("week");
    expect(next).to.equal(before + 1n);
    expect(await rewards.lastPaidEpoch()).to.equal(before);
    expect(await rewards.startedEpoch()).to.equal(next);
    expect(await rewards.rewardOf(alice.address)).to.equal(750n);
    expect(await rewards.rewardOf(bob.address)).to.equal(250n);
  });

  it("reads the timers from Solidity through the precompile", async () => {
    await loadFixture(deployed);
    const epochs = await ethers.getContractAt("IEpochs", PRECOMPILE);
    const infos = await epochs.epochInfos();
    expect(infos.map((i: { identifier: string }) => i.identifier)).to.deep.equal(["day", "week"]);
    expect(infos[1].duration).to.equal(604800n);
    expect(await epochs.currentEpoch("week")).to.equal(await hre.epochs.current("week"));
    await expect(epochs.currentEpoch("month")).to.be.revertedWith("epoch info not found: month");
  });

  it("npx hardhat epochs:advance moves a timer on in-process, hooks called, and refuses a count that is not positive", async () => {
    const { counter } = await loadFixture(deployed);
    const [day, days] = [await hre.epochs.current("day"), await counter.daysStarted()];
    expect(await hre.run("epochs:advance", { identifier: "day", count: 2 })).to.equal(day + 2n);
    expect(await hre.epochs.current("day")).to.equal(day + 2n);
    expect(await counter.daysStarted()).to.equal(days + 2n);
    await expect(hre.run("epochs:advance", { identifier: "day", count: 0 })).to.be.rejectedWith("--count must be a positive integer, got 0");
    await expect(hre.run("epochs:advance", { identifier: "month" })).to.be.rejectedWith("epoch info not found: month (known: day, week)");
    // --to-next ID: to the start of the timer's next epoch
    expect(await hre.run("epochs:advance", { toNext: "day" })).to.equal(day + 3n);
    expect(await counter.daysStarted()).to.equal(days + 3n);
    await expect(hre.run("epochs:advance", { toNext: "day", identifier: "week" })).to.be.rejectedWith("epochs:advance takes --to-next ID or --identifier ID, not both");
    await expect(hre.run("epochs:advance", { toNext: "day", count: 2 })).to.be.rejectedWith("--to-next moves one epoch on; for more, --identifier ID --count N");
    await expect(hre.run("epochs:advance", {})).to.be.rejectedWith("epochs:advance needs --identifier ID (or --to-next ID), e.g. week or day");
  });

  it("epochs_advance (dev): one request moves a timer on, bounded, with JSON-RPC errors for bad input", async () => {
    const { counter } = await loadFixture(deployed);
    const [day, days] = [await hre.epochs.current("day"), await counter.daysStarted()];
    expect(await hre.network.provider.send("epochs_advance", ["day", "0x3"])).to.deep.equal({ current_epoch: String(day + 3n) });
    expect(await counter.daysStarted()).to.equal(days + 3n);
    expect(await hre.network.provider.send("epochs_advance", ["day"])).to.deep.equal({ current_epoch: String(day + 4n) });
    const failure = (params: unknown[]): Promise<{ code?: number; message: string }> =>
      hre.network.provider.send("epochs_advance", params).then(
        () => expect.fail("answered"),
        (e: { code?: number; message: string }) => e,
      );
    expect(await failure(["day", 0])).to.deep.include({ code: -32602, message: "invalid argument 1: count must be 1 to 1000, got 0" });
    expect(await failure(["day", 1001])).to.deep.include({ code: -32602, message: "invalid argument 1: count must be 1 to 1000, got 1001" });
    expect(await failure(["month"])).to.deep.include({ code: -32000, message: "epoch info not found: month" });
    expect((await failure([7])).code).to.equal(-32602);
  });

  it("names the timers there are when hre.epochs is asked for one that is not (the chain's answer stays Evmos's)", async () => {
    for (const ask of [() => hre.epochs.current("month"), () => hre.epochs.advance("month")]) {
      await expect(ask()).to.be.rejectedWith("epoch info not found: month (known: day, week)");
    }
    const rpc = await hre.network.provider.send("epochs_currentEpoch", ["month"]).then(
      () => undefined,
      (err: Error) => err.message,
    );
    expect(rpc).to.equal("epoch info not found: month");
  });

  it("isolates a reverting hook: the other hooks and the epoch go on, and the failure is recorded", async () => {
    const { counter } = await loadFixture(deployed);
    const bad = await ethers.deployContract("RevertingHook", [false]);
    const days = await counter.daysStarted();
    await hre.epochs.advance("day");
    expect(await counter.daysStarted()).to.equal(days + 1n);
    expect(await bad.touched()).to.equal(0n);
    // find the block where the day epoch started and read its events
    const latest = await hre.epochs.blockEvents("latest");
    const failed = latest!.begin_block_events.filter((e) => e.type === "epoch_hook_failed");
    const attrs = Object.fromEntries(failed.find((e) => e.attributes.some((a) => a.value === (bad.target as string).toLowerCase()))!.attributes.map((a) => [a.key, a.value]));
    expect(attrs).to.include({ identifier: "day", hook: "BeforeEpochStart", reason: "execution reverted: hook says no" });
    const ok = latest!.begin_block_events.find((e) => e.type === "epoch_hook" && e.attributes.some((a) => a.value === (counter.target as string).toLowerCase()));
    expect(ok).to.not.equal(undefined);
  });

  it("isolates a hook that runs out of gas", async () => {
    const { counter } = await loadFixture(deployed);
    await ethers.deployContract("RevertingHook", [true]);
    const days = await counter.daysStarted();
    await hre.epochs.advance("day");
    expect(await counter.daysStarted()).to.equal(days + 1n);
    const events = await hre.epochs.blockEvents("latest");
    const oog = events!.begin_block_events.find((e) => e.type === "epoch_hook_failed" && e.attributes.some((a) => a.key === "gas_used" && a.value === "3000000"));
    expect(oog).to.not.equal(undefined);
  });

  it("does not keep a registration made inside a reverted transaction", async () => {
    await loadFixture(deployed);
    const epochs = await ethers.getContractAt("IEpochs", PRECOMPILE);
    const before = await epochs.hooks();
    await expect(ethers.deployContract("RegisterThenRevert")).to.be.revertedWith("undo");
    expect(await epochs.hooks()).to.deep.equal(before);
  });

  it("emits HooksRegistered and answers false for a second registration", async () => {
    const { counter } = await loadFixture(deployed);
    const epochs = await ethers.getContractAt("IEpochs", PRECOMPILE);
    await expect(counter.unregister())
      .to.emit(epochs, "HooksUnregistered")
      .withArgs(await counter.getAddress());
    expect(await hre.epochs.registerHooks(await counter.getAddress())).to.equal(true);
    expect(await hre.epochs.registerHooks(await counter.getAddress())).to.equal(false);
  });

  it("restores epochs records and hook registrations with loadFixture", async () => {
    const { counter } = await loadFixture(deployed);
    const week = await hre.epochs.current("week");
    const hooks = await hre.epochs.hooks();
    await hre.epochs.advance("week", 2);
    await counter.unregister();
    expect(await hre.epochs.current("week")).to.equal(week + 2n);
    await loadFixture(deployed);
    expect(await hre.epochs.current("week")).to.equal(week);
    expect(await hre.epochs.hooks()).to.deep.equal(hooks);
  });

  it("saves and loads the chain's state with hre.epochs (epochs records, hooks, contract storage); loadFixture still reverts", async () => {
    const { counter, rewards } = await loadFixture(deployed);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "epochs-state-"));
    const file = path.join(dir, "state.json");
    try {
      const saved = { week: await hre.epochs.current("week"), hooks: await hre.epochs.hooks(), paid: await rewards.lastPaidEpoch() };
      const dump = await hre.epochs.saveState(file);
      // the epochs store travels as storage of the precompile's account, with the hook registry
      const saved0900 = JSON.parse(fs.readFileSync(file, "utf8")).accounts["0x0000000000000000000000000000000000000900"];
      expect(Object.keys(saved0900.storage).length).to.be.greaterThan(3);
      await hre.epochs.advance("week", 2);
      await counter.unregister();
      await hre.epochs.loadState(file);
      expect(await hre.epochs.current("week")).to.equal(saved.week);
      expect(await hre.epochs.hooks()).to.deep.equal(saved.hooks);
      expect(await rewards.lastPaidEpoch()).to.equal(saved.paid);
      await hre.epochs.advance("week");
      await hre.epochs.loadState(dump);
      expect(await hre.epochs.current("week")).to.equal(saved.week);
      await loadFixture(deployed);
      expect(await hre.epochs.current("week")).to.equal(saved.week);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("runs TypeScript hooks in-process", async () => {
    await loadFixture(deployed);
    const seen: string[] = [];
    const offStart = await hre.epochs.onBeforeEpochStart((id, n) => {
      seen.push(`start ${id} ${n}`);
    });
    const offEnd = await hre.epochs.onAfterEpochEnd((id, n) => {
      seen.push(`end ${id} ${n}`);
    });
    const n = await hre.epochs.current("day");
    await hre.epochs.advance("day");
    offStart();
    offEnd();
    expect(seen).to.include(`end day ${n}`);
    expect(seen).to.include(`start day ${n + 1n}`);
  });

  it("undoes everything a failing hook did: its successful system call's writes and logs, its events, its store writes", async () => {
    const { counter } = await loadFixture(deployed);
    const counterAddress = ethers.getBytes(await counter.getAddress());
    const days = await counter.daysStarted();
    let height: bigint | undefined;
    const off = await hre.epochs.onAfterEpochEnd(async (id, n, ctx) => {
      if (id !== "day") return;
      height = ctx.height;
      // a call that succeeds and writes (the chain's own caller, as a hook call has), an event, a store write: then a throw
      const data = ethers.getBytes(counter.interface.encodeFunctionData("beforeEpochStart", ["day", 777n]));
      const call = await ctx.systemCall({ caller: ethers.getBytes(PRECOMPILE), to: counterAddress, data, gasLimit: 200_000n });
      expect(call.success).to.equal(true);
      ctx.emit({ type: "partial_work", attributes: [{ key: "epoch_number", value: n.toString() }] });
      ctx.store.set(new TextEncoder().encode("partial"), new Uint8Array([1]));
      throw new Error("failed after its work");
    });
    try {
      await hre.epochs.advance("day");
    } finally {
      off();
    }
    // the real hook's start of day counted, the failed hook's call did not
    expect(await counter.daysStarted()).to.equal(days + 1n);
    expect(await counter.lastDay()).to.not.equal(777n);
    const events = await hre.epochs.blockEvents(height as bigint);
    const all = [...(events?.begin_block_events ?? []), ...(events?.end_block_events ?? [])];
    expect(all.map((e) => e.type)).to.not.include("partial_work");
    const failed = all.find((e) => e.type === "epoch_hook_failed" && e.attributes.some((a) => a.key === "address" && a.value === "typescript"));
    expect(failed?.attributes.find((a) => a.key === "reason")?.value).to.equal("failed after its work");
    const runtime = await hre.epochsProvider!.runtime();
    const store = await runtime.node.moduleStore(EPOCHS_MODULE);
    expect(store.get(new TextEncoder().encode("partial"))).to.equal(undefined);
  });

  it("does not run TypeScript hooks again when blocks are traced (contract hooks run inside the replay only)", async () => {
    const { counter } = await loadFixture(deployed);
    const seen: string[] = [];
    const offStart = await hre.epochs.onBeforeEpochStart((id, n) => void seen.push(`start ${id} ${n}`));
    const offEnd = await hre.epochs.onAfterEpochEnd((id, n) => void seen.push(`end ${id} ${n}`));
    try {
      const before = await hre.epochs.current("day");
      const first = BigInt(await hre.network.provider.send("eth_blockNumber")) + 1n;
      await hre.epochs.advance("day");
      const last = BigInt(await hre.network.provider.send("eth_blockNumber"));
      const calls = [...seen];
      const days = await counter.daysStarted();
      expect(calls).to.include(`end day ${before}`);
      expect(calls).to.include(`start day ${before + 1n}`);
      // every block the advance mined, traced (its hooks re-run in the replay), twice
      for (let round = 0; round < 2; round++) {
        for (let n = first; n <= last; n++) await hre.network.provider.send("debug_traceBlockByNumber", [`0x${n.toString(16)}`, { tracer: "callTracer" }]);
      }
      expect(seen).to.deep.equal(calls);
      expect(await hre.epochs.current("day")).to.equal(before + 1n);
      expect(await counter.daysStarted()).to.equal(days);
    } finally {
      offStart();
      offEnd();
    }
  });
});

describe("epochs:export-genesis", function () {
  it("writes a Cosmos genesis.json that a new chain starts from, continuing the count", async () => {
    await hre.epochs.advance("day");
    const day = await hre.epochs.current("day");
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "export-"));
    try {
      const file = path.join(dir, "genesis.json");
      await hre.run("epochs:export-genesis", { out: file });
      const g = parseCosmosGenesis(fs.readFileSync(file, "utf8"));
      expect(g.chainId).to.equal(9000n);
      expect(g.epochs.epochs.find((e) => e.identifier === "day")?.currentEpoch).to.equal(day);
      const rt = await createRuntime({
        chain: { ...defaultChainConfig(), initialDate: new Date(Number(g.genesisTime!.seconds) * 1000) },
        clientVersion: "x",
        epochs: { genesis: g.epochs },
      });
      try {
        expect(rt.epochs!.currentEpoch(await rt.node.moduleStore(EPOCHS_MODULE), "day")).to.equal(day);
      } finally {
        await rt.close();
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
