import { expect } from "chai";
import { network } from "hardhat";

const { ethers, epochs } = await network.create();
// the staking precompile's address; its interface, IStaking, comes with hardhat-epochs (the plugin builds it)
const STAKING = "0x0000000000000000000000000000000000000800";

describe("the staking precompile (Hardhat 3)", () => {
  it("delegates to the chain's validator through the package's IStaking", async () => {
    const [operator, alice] = await ethers.getSigners();
    const validator = await epochs.cosmos.valoper(operator.address);
    const staking = await ethers.getContractAt("IStaking", STAKING, alice);
    await expect(staking.delegate(alice.address, validator, ethers.parseEther("100"))).to.emit(staking, "Delegate");
    const [, balance] = await staking.delegation(alice.address, validator);
    expect(balance.amount).to.equal(ethers.parseEther("100"));
  });
});
