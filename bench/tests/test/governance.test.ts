// Governance-style time travel: voting delays and periods counted in blocks (mine(n) of thousands of
// blocks, as Governor suites do), a timelock in seconds (time.increase), fixtures and snapshots.
import { expect } from "chai";
import { ethers } from "hardhat";
import type { Contract } from "ethers";
import { loadFixture, mine, takeSnapshot, time } from "@nomicfoundation/hardhat-network-helpers";

async function deployBallot() {
  const signers = await ethers.getSigners();
  const voters = signers.slice(0, 5);
  const ballot = await ethers.deployContract("Ballot", [voters.map((v) => v.address), 6]);
  const registry = await ethers.deployContract("Registry");
  const call = registry.interface.encodeFunctionData("register", ["governed"]);
  return { ballot, registry, voters, call, outsider: signers[6] };
}

describe("Ballot (governance)", function () {
  for (let round = 0; round < 6; round++) {
    describe(`round ${round}`, function () {
      it("runs a proposal through delay, vote, period, queue, timelock and execution", async function () {
        const { ballot, registry, voters, call } = await loadFixture(deployBallot);
        await expect(ballot.propose(await registry.getAddress(), call)).to.emit(ballot, "ProposalCreated");
        expect(await ballot.state(0)).to.equal(0n);
        await mine(7200);
        for (const v of voters.slice(2)) await (ballot.connect(v) as Contract).castVote(0, true);
        expect(await ballot.state(0)).to.equal(1n);
        await mine(50400);
        expect(await ballot.state(0)).to.equal(3n);
        await expect(ballot.queue(0)).to.emit(ballot, "ProposalQueued");
        await expect(ballot.execute(0)).to.be.revertedWith("timelock not passed");
        await time.increase(2 * 24 * 3600);
        await expect(ballot.execute(0)).to.emit(ballot, "ProposalExecuted");
        expect(await ballot.state(0)).to.equal(5n);
      });

      it("defeats a proposal without quorum, and refuses votes outside the period", async function () {
        const { ballot, registry, voters, call, outsider } = await loadFixture(deployBallot);
        await ballot.propose(await registry.getAddress(), call);
        await expect(ballot.castVote(0, true)).to.be.revertedWith("vote not active");
        await mine(7201);
        await (ballot.connect(voters[1]) as Contract).castVote(0, true);
        await expect((ballot.connect(outsider) as Contract).castVote(0, true)).to.be.revertedWith("not a voter");
        await mine(50400);
        expect(await ballot.state(0)).to.equal(2n);
        await expect((ballot.connect(voters[2]) as Contract).castVote(0, true)).to.be.revertedWith("vote not active");
        await expect(ballot.queue(0)).to.be.revertedWith("proposal not successful");
      });

      it("snapshots around the voting period", async function () {
        const { ballot, registry, voters, call } = await loadFixture(deployBallot);
        await ballot.propose(await registry.getAddress(), call);
        await mine(7201);
        const snap = await takeSnapshot();
        const before = await time.latestBlock();
        await mine(50400);
        expect(await time.latestBlock()).to.equal(before + 50400);
        await snap.restore();
        expect(await time.latestBlock()).to.equal(before);
        await (ballot.connect(voters[4]) as Contract).castVote(0, true);
        await (ballot.connect(voters[3]) as Contract).castVote(0, false);
        await mine(50400);
        expect(await ballot.state(0)).to.equal(2n);
      });
    });
  }
});
