// Hardhat's sample Lock tests, repeated: fixtures, time travel, snapshots, mined blocks.
import { expect } from "chai";
import { ethers } from "hardhat";
import type { Contract } from "ethers";
import { loadFixture, mine, takeSnapshot, time } from "@nomicfoundation/hardhat-network-helpers";

const ONE_YEAR = 365 * 24 * 60 * 60;

async function deployLock() {
  const [owner, other] = await ethers.getSigners();
  const unlockTime = (await time.latest()) + ONE_YEAR;
  const lock = await ethers.deployContract("Lock", [unlockTime], { value: 1_000_000_000n });
  return { lock, unlockTime, owner, other };
}

describe("Lock", function () {
  for (let round = 0; round < 8; round++) {
    describe(`round ${round}`, function () {
      it("sets the unlock time and the owner", async function () {
        const { lock, unlockTime, owner } = await loadFixture(deployLock);
        expect(await lock.unlockTime()).to.equal(unlockTime);
        expect(await lock.owner()).to.equal(owner.address);
      });

      it("refuses an early withdrawal", async function () {
        const { lock } = await loadFixture(deployLock);
        await expect(lock.withdraw()).to.be.revertedWith("You can't withdraw yet");
      });

      it("refuses another account", async function () {
        const { lock, unlockTime, other } = await loadFixture(deployLock);
        await time.increaseTo(unlockTime);
        await expect((lock.connect(other) as Contract).withdraw()).to.be.revertedWith("You aren't the owner");
      });

      it("withdraws after the unlock time, with the event and the balances", async function () {
        const { lock, unlockTime, owner } = await loadFixture(deployLock);
        await time.increaseTo(unlockTime);
        await expect(lock.withdraw()).to.emit(lock, "Withdrawal");
        await time.increase(60);
        const { lock: again } = await loadFixture(deployLock);
        await time.increaseTo(unlockTime);
        await expect(again.withdraw()).to.changeEtherBalances([owner, again], [1_000_000_000n, -1_000_000_000n]);
      });

      it("snapshots and mined blocks", async function () {
        const { lock } = await loadFixture(deployLock);
        const snap = await takeSnapshot();
        const before = await time.latestBlock();
        await mine(20);
        expect(await time.latestBlock()).to.equal(before + 20);
        await snap.restore();
        expect(await time.latestBlock()).to.equal(before);
        await expect(lock.withdraw()).to.be.reverted;
      });
    });
  }
});
