import { expect } from "chai";
import hre, { ethers } from "hardhat";
import { loadFixture, mine, time } from "@nomicfoundation/hardhat-network-helpers";
import type { Contract } from "ethers";

const STAKING = "0x0000000000000000000000000000000000000800";
const UNBONDING = 21 * 24 * 3600; // the chain's unbonding time (x/staking's default)

describe("LiquidStakingVault", () => {
  async function deployed() {
    const [operator, alice, bob] = await ethers.getSigners();
    // the chain's one validator, operated by the first account
    const validator = await hre.epochs.cosmos.valoper(operator.address);
    const vault = await ethers.deployContract("LiquidStakingVault", [validator]);
    const as = (signer: typeof alice) => vault.connect(signer) as Contract;
    const staking = await ethers.getContractAt("IStaking", STAKING);
    return { vault, validator, staking, alice, bob, as };
  }

  it("delegates deposits to the validator and hands out shares", async () => {
    const { vault, validator, staking, alice, as } = await loadFixture(deployed);
    await expect(as(alice).deposit({ value: ethers.parseEther("100") }))
      .to.emit(vault, "Deposited")
      .withArgs(alice.address, ethers.parseEther("100"), ethers.parseEther("100"))
      .and.to.emit(staking, "Delegate");
    const [, balance] = await staking.delegation(await vault.getAddress(), validator);
    expect(balance.amount).to.equal(ethers.parseEther("100"));
    expect(await vault.totalAssets()).to.equal(ethers.parseEther("100"));
    expect((await hre.epochs.cosmos.delegations(await vault.getAddress()))[0].balance.amount).to.equal(ethers.parseEther("100").toString());
  });

  it("compounds its rewards at every day's end, so a share is worth more", async () => {
    const { vault, as, alice, bob } = await loadFixture(deployed);
    await as(alice).deposit({ value: ethers.parseEther("100") });
    await hre.epochs.advance("day");
    // the day's 10 coins: 2 % to the community pool, 10 % commission, the rest shared by the 1,100
    // bonded coins (the validator's 1,000 and the vault's 100): 0.008018181818181818 a coin → 0.80181818181818180
    const reward = 801_818_181_818_181_800n;
    expect(await vault.harvests()).to.equal(1n);
    expect(await vault.totalAssets()).to.equal(ethers.parseEther("100") + reward);
    // Bob's 50 coins buy fewer shares than Alice's first 100 did
    await as(bob).deposit({ value: ethers.parseEther("50") });
    expect(await vault.shares(bob.address)).to.equal((ethers.parseEther("50") * ethers.parseEther("100")) / (ethers.parseEther("100") + reward));
    await hre.epochs.advance("day", 2);
    expect(await vault.harvests()).to.equal(3n);
    expect(await vault.totalAssets()).to.be.greaterThan(ethers.parseEther("150") + reward);
  });

  it("pays a withdrawal once the chain's unbonding completes", async () => {
    const { vault, as, alice } = await loadFixture(deployed);
    await as(alice).deposit({ value: ethers.parseEther("100") });
    await expect(as(alice).requestWithdraw(ethers.parseEther("40"))).to.emit(vault, "WithdrawRequested");
    const [, amount, completionTime] = await vault.withdrawals(0);
    expect(amount).to.equal(ethers.parseEther("40"));
    expect(completionTime).to.equal(BigInt(await time.latest()) + BigInt(UNBONDING));
    await expect(as(alice).withdraw(0)).to.be.revertedWithCustomError(vault, "NotYet").withArgs(completionTime);
    // the block that reaches the completion time returns the coins to the vault; the next may pay them
    await time.increaseTo(completionTime);
    await mine();
    await expect(as(alice).withdraw(0)).to.changeEtherBalance(alice, ethers.parseEther("40"));
  });

  it("takes hook calls only from the chain", async () => {
    const { vault, as, alice } = await loadFixture(deployed);
    await expect(as(alice).afterEpochEnd("day", 1)).to.be.revertedWithCustomError(vault, "OnlyChain");
  });
});
