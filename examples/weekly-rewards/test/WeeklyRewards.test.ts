import { expect } from "chai";
import hre, { ethers } from "hardhat";
import { loadFixture } from "@nomicfoundation/hardhat-network-helpers";
import type { Contract } from "ethers";

const REWARD = ethers.parseEther("1");

describe("WeeklyRewards", () => {
  async function deployed() {
    const [owner, alice, bob] = await ethers.getSigners();
    // registers itself as an epoch hook in its constructor
    const rewards = await ethers.deployContract("WeeklyRewards", [REWARD], { value: ethers.parseEther("10") });
    // without typechain, connect() returns a BaseContract: give the calls back their ABI
    const as = (signer: typeof alice) => rewards.connect(signer) as Contract;
    return { rewards, owner, alice, bob, as };
  }

  it("is registered as an epoch hook", async () => {
    const { rewards } = await loadFixture(deployed);
    expect(await hre.epochs.hooks()).to.include(await rewards.getAddress());
  });

  it("shares the week's reward by stake when the chain ends the week", async () => {
    const { rewards, alice, bob, as } = await loadFixture(deployed);
    await expect(as(alice).stake({ value: ethers.parseEther("1") }))
      .to.emit(rewards, "Staked")
      .withArgs(alice.address, ethers.parseEther("1"));
    await as(bob).stake({ value: ethers.parseEther("3") });

    const week = await hre.epochs.current("week");
    expect(await hre.epochs.advance("week")).to.equal(week + 1n); // the chain calls afterEpochEnd("week", week)

    expect(await rewards.weeksPaid()).to.equal(1n);
    expect(await rewards.pending(alice.address)).to.equal(REWARD / 4n);
    await expect(as(alice).claim()).to.changeEtherBalance(alice, REWARD / 4n);
    await expect(as(bob).claim()).to.emit(rewards, "Claimed").withArgs(bob.address, (REWARD * 3n) / 4n);
  });

  it("ignores the other timers", async () => {
    const { rewards, alice, as } = await loadFixture(deployed);
    await as(alice).stake({ value: 1000n });
    await hre.epochs.advance("day", 2);
    expect(await rewards.weeksPaid()).to.equal(0n);
    await expect(as(alice).claim()).to.be.revertedWithCustomError(rewards, "NothingToClaim");
  });

  it("takes hook calls only from the chain", async () => {
    const { rewards, alice, as } = await loadFixture(deployed);
    await expect(as(alice).afterEpochEnd("week", 1)).to.be.revertedWithCustomError(rewards, "OnlyChain");
  });
});
