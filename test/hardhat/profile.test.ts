/**
 * The cosmos-evm profile in-process (`epochs: { profile: "cosmos-evm" }` in hardhat.config.ts): the
 * provider Hardhat's network gets (createEpochsProvider) runs the Cosmos SDK's x/epochs and answers
 * as cosmos/evm. The node's side: test/e2e/node-profile.test.ts.
 */
import { expect } from "chai";
import hre from "hardhat";
import { resolveEpochsConfig } from "../../src/hardhat/chain-config";
import { type EpochsProvider, createEpochsProvider } from "../../src/hardhat/provider";

describe('epochs.profile = "cosmos-evm" in-process', function () {
  this.timeout(60_000);
  const saved = hre.config.epochs;
  let provider: EpochsProvider;

  before(() => {
    // what the config resolution gives for the user's section (src/hardhat/chain-config.ts)
    hre.config.epochs = resolveEpochsConfig({ profile: "cosmos-evm" });
    provider = createEpochsProvider(hre);
  });
  after(async () => {
    hre.config.epochs = saved;
    await provider.close();
  });

  it("starts from the SDK's default genesis and ticks with its rule and typed events", async () => {
    const infos = (await provider.request({ method: "epochs_epochInfos", params: [] })) as { epochs: Array<{ identifier: string }> };
    expect(infos.epochs.map((e) => e.identifier)).to.deep.equal(["day", "hour", "minute", "week"]);
    await provider.request({ method: "evm_mine", params: [] });
    const latest = (await provider.request({ method: "eth_getBlockByNumber", params: ["latest", false] })) as { timestamp: string };
    const minute = (await provider.request({ method: "epochs_epochInfos", params: [] })) as { epochs: Array<{ current_epoch_start_time: string }> };
    const start = Math.floor(Date.parse(minute.epochs[2].current_epoch_start_time) / 1000);
    expect(start).to.be.at.most(Number(latest.timestamp));
    await provider.request({ method: "evm_mine", params: [start + 61] });
    const events = (await provider.request({ method: "epochs_blockEvents", params: ["latest"] })) as { begin_block_events: Array<{ type: string; attributes: Array<{ key: string; value: string }> }> };
    expect(events.begin_block_events.filter((e) => e.type.startsWith("cosmos.epochs.v1beta1."))).to.deep.include({
      type: "cosmos.epochs.v1beta1.EventEpochEnd",
      attributes: [{ key: "epoch_number", value: '"1"' }],
      // the node's name for the timer (the SDK's typed event has no identifier)
      timer: "minute",
    });
  });

  it("answers the methods cosmos/evm removed with -32601", async () => {
    let error: { code?: number; message?: string } = {};
    await provider.request({ method: "eth_coinbase", params: [] }).catch((e: { code?: number; message?: string }) => (error = e));
    expect(error).to.include({ code: -32601, message: "the method eth_coinbase does not exist/is not available" });
  });

  it("refuses an unknown profile when the config loads", () => {
    expect(() => resolveEpochsConfig({ profile: "osmosis" as never })).to.throw(/invalid epochs.profile "osmosis": expected "evmos" or "cosmos-evm"/);
  });
});
