// Many deployments: factories, constructor arguments, ether sent to constructors.
import { expect } from "chai";
import { ethers } from "hardhat";
import { time } from "@nomicfoundation/hardhat-network-helpers";

describe("deployments", function () {
  for (let round = 0; round < 10; round++) {
    it(`round ${round}: 20 contracts`, async function () {
      const Token = await ethers.getContractFactory("BenchToken");
      const Registry = await ethers.getContractFactory("Registry");
      const Lock = await ethers.getContractFactory("Lock");
      const unlock = (await time.latest()) + 3600;
      for (let i = 0; i < 8; i++) {
        const t = await Token.deploy(`T${round}-${i}`, BigInt(i + 1) * 10n ** 18n);
        expect(await t.totalSupply()).to.equal(BigInt(i + 1) * 10n ** 18n);
      }
      for (let i = 0; i < 6; i++) await (await Registry.deploy()).waitForDeployment();
      for (let i = 0; i < 6; i++) {
        const lock = await Lock.deploy(unlock, { value: 1000 + i });
        expect(await ethers.provider.getBalance(await lock.getAddress())).to.equal(BigInt(1000 + i));
      }
    });
  }

  it("a constructor that reverts", async function () {
    const Lock = await ethers.getContractFactory("Lock");
    const past = (await time.latest()) - 1;
    for (let i = 0; i < 10; i++) await expect(Lock.deploy(past)).to.be.revertedWith("Unlock time should be in the future");
  });
});
