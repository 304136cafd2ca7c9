/**
 * Hardhat compatibility: a test written the way users write Hardhat tests (hardhat-ethers, the chai
 * matchers, the network helpers), running in-process on this plugin's chain instead of EDR.
 */
import { expect } from "chai";
import hre, { ethers } from "hardhat";
import { impersonateAccount, loadFixture, mine, setBalance, stopImpersonatingAccount, takeSnapshot, time } from "@nomicfoundation/hardhat-network-helpers";
import { anyValue } from "@nomicfoundation/hardhat-chai-matchers/withArgs";
import type { Contract, Signer } from "ethers";

/** `contract.connect(signer)` keeps the ABI's methods (without typechain, ethers types it as BaseContract). */
const by = (contract: Contract, signer: Signer): Contract => contract.connect(signer) as Contract;

describe("hardhat compatibility (ethers, chai matchers, network helpers)", function () {
  const SUPPLY = ethers.parseEther("1000");
  const LOCK = 3600;

  async function deployFixture() {
    const [owner, alice, bob] = await ethers.getSigners();
    const token = await ethers.deployContract("Token", ["Test", "TST", SUPPLY]);
    const reverter = await ethers.deployContract("Reverter", [LOCK]);
    return { token, reverter, owner, alice, bob };
  }

  it("serves the hardhat network from this plugin's chain (chain id 9000)", async () => {
    expect(hre.network.name).to.equal("hardhat");
    expect(hre.network.provider).to.equal(hre.epochsProvider);
    expect((await ethers.provider.getNetwork()).chainId).to.equal(9000n);
    expect(await hre.network.provider.send("web3_clientVersion")).to.match(/^HardhatNetwork\/.+\/hardhat-epochs\//);
  });

  it("deploys and reads state through ethers", async () => {
    const { token, owner } = await loadFixture(deployFixture);
    expect(await token.name()).to.equal("Test");
    expect(await token.totalSupply()).to.equal(SUPPLY);
    expect(await token.balanceOf(owner.address)).to.equal(SUPPLY);
  });

  it("emits events with arguments", async () => {
    const { token, owner, alice } = await loadFixture(deployFixture);
    await expect(token.transfer(alice.address, 100n)).to.emit(token, "Transfer").withArgs(owner.address, alice.address, 100n);
    await expect(by(token, alice).approve(owner.address, 5n)).to.emit(token, "Approval").withArgs(alice.address, owner.address, anyValue);
    await expect(token.transfer(alice.address, 1n)).not.to.emit(token, "Approval");
  });

  it("changes token and ether balances", async () => {
    const { token, owner, alice } = await loadFixture(deployFixture);
    await expect(token.transfer(alice.address, 7n)).to.changeTokenBalances(token, [owner, alice], [-7n, 7n]);
    const value = ethers.parseEther("1");
    await expect(by(token, alice).buy({ value })).to.changeEtherBalance(alice, -value);
    await expect(token.withdraw(value)).to.changeEtherBalances([token, owner], [-value, value]);
    await expect(alice.sendTransaction({ to: owner.address, value: 10n })).to.changeEtherBalance(owner, 10n);
  });

  it("loadFixture restores the state of the fixture", async () => {
    const { token, alice } = await loadFixture(deployFixture);
    expect(await token.balanceOf(alice.address)).to.equal(0n);
    await token.transfer(alice.address, 1n);
    const again = await loadFixture(deployFixture);
    expect(await again.token.balanceOf(alice.address)).to.equal(0n);
    expect(await again.token.getAddress()).to.equal(await token.getAddress());
  });

  it("reverts with a reason, a custom error, a panic, or no reason", async () => {
    const { token, reverter, alice } = await loadFixture(deployFixture);
    await expect(reverter.withReason()).to.be.revertedWith("Reverter: no way");
    await expect(reverter.withCustom(7)).to.be.revertedWithCustomError(reverter, "Custom").withArgs(7, "custom failure");
    await expect(reverter.withoutReason()).to.be.revertedWithoutReason();
    await expect(reverter.withPanic()).to.be.revertedWithPanic(0x32);
    await expect(by(token, alice).transfer(alice.address, 1n)).to.be.revertedWithCustomError(token, "InsufficientBalance").withArgs(alice.address, 0n, 1n);
    await expect(by(token, alice).mint(alice.address, 1n)).to.be.revertedWithCustomError(token, "NotOwner");
    await expect(by(token, alice).withdraw(1n)).to.be.revertedWith("only the owner can withdraw");
    await expect(token.transfer(alice.address, 1n)).not.to.be.reverted;
  });

  it("moves time with time.increase, time.increaseTo and mine", async () => {
    const { reverter } = await loadFixture(deployFixture);
    await expect(reverter.count()).to.be.revertedWith("Reverter: still locked");
    const before = await time.latest();
    await time.increase(LOCK);
    expect(await time.latest()).to.equal(before + LOCK);
    await expect(reverter.count()).to.emit(reverter, "Counted").withArgs(1n, anyValue);

    const target = (await time.latest()) + 1000;
    await time.increaseTo(target);
    expect(await time.latest()).to.equal(target);

    const height = await time.latestBlock();
    await mine(5);
    expect(await time.latestBlock()).to.equal(height + 5);
    await mine(3, { interval: 60 });
    expect(await time.latest()).to.be.greaterThanOrEqual(target + 2 * 60);
  });

  it("impersonates accounts and sets balances", async () => {
    const { token, owner, alice } = await loadFixture(deployFixture);
    const stranger = "0x1234567890123456789012345678901234567890";
    await setBalance(stranger, ethers.parseEther("5"));
    expect(await ethers.provider.getBalance(stranger)).to.equal(ethers.parseEther("5"));

    await token.transfer(stranger, 50n);
    await impersonateAccount(stranger);
    const signer = await ethers.getSigner(stranger);
    await expect(by(token, signer).transfer(alice.address, 20n)).to.emit(token, "Transfer").withArgs(stranger, alice.address, 20n);
    await stopImpersonatingAccount(stranger);
    expect(await token.balanceOf(stranger)).to.equal(30n);
    expect(await token.balanceOf(owner.address)).to.equal(SUPPLY - 50n);
  });

  it("takes and restores snapshots", async () => {
    const { token, alice } = await loadFixture(deployFixture);
    const snapshot = await takeSnapshot();
    await token.transfer(alice.address, 3n);
    expect(await token.balanceOf(alice.address)).to.equal(3n);
    await snapshot.restore();
    expect(await token.balanceOf(alice.address)).to.equal(0n);
  });

  it("answers Hardhat's own calls", async () => {
    expect(await hre.network.provider.send("hardhat_getStackTraceFailuresCount")).to.equal(0);
    const err = await hre.network.provider.send("eth_noSuchMethod").then(
      () => undefined,
      (e: unknown) => e as { code: number; message: string; _isProviderError?: boolean },
    );
    expect(err?.code).to.equal(-32601);
    expect(err?._isProviderError).to.equal(true);
    expect(err?.message).to.equal("the method eth_noSuchMethod does not exist/is not available");
  });
});
