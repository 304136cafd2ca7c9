// A contract with epoch hooks advanced through 50 "day" epochs. On this plugin's chain the chain calls
// the hooks; on stock Hardhat (BENCH_STOCK=1) the same contract is a plain one: the clock moves by the
// same 50 days (one mined block per day) and nothing calls it.
import { expect } from "chai";
import hre, { ethers } from "hardhat";
import { time } from "@nomicfoundation/hardhat-network-helpers";

const STOCK = process.env.BENCH_STOCK === "1";
const EPOCHS = 50;

describe("epoch hooks", function () {
  it(`runs through ${EPOCHS} epochs`, async function () {
    const counter = await ethers.deployContract("EpochCounter");
    if (STOCK) {
      for (let i = 0; i < EPOCHS; i++) await time.increase(86400);
      expect(await counter.started()).to.equal(0n);
      return;
    }
    await counter.register();
    const first = await hre.epochs.current("day");
    expect(await hre.epochs.advance("day", EPOCHS)).to.equal(first + BigInt(EPOCHS));
    expect(await counter.started()).to.equal(BigInt(EPOCHS));
    expect(await counter.lastEpoch()).to.equal(first + BigInt(EPOCHS));
  });
});
