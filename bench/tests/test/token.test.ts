// Token and registry tests in the usual style: a loadFixture per test, transfers checked with the
// balance matchers, events with arguments, custom errors, string reverts and panics.
import { expect } from "chai";
import { ethers } from "hardhat";
import type { Contract, Signer } from "ethers";
import { loadFixture } from "@nomicfoundation/hardhat-network-helpers";
import { PANIC_CODES } from "@nomicfoundation/hardhat-chai-matchers/panic";

const UNIT = 10n ** 18n;

// the contract as `signer` sends it (connect() types its result as a BaseContract, without the ABI's methods)
const by = (contract: Contract, signer: Signer): Contract => contract.connect(signer) as Contract;

async function deployToken() {
  const [owner, ...others] = await ethers.getSigners();
  const token = await ethers.deployContract("BenchToken", ["Bench", 1_000_000n * UNIT]);
  for (const o of others.slice(0, 5)) await token.transfer(o.address, 1000n * UNIT);
  const registry = await ethers.deployContract("Registry");
  return { token, registry, owner, others };
}

describe("BenchToken", function () {
  for (let i = 0; i < 30; i++) {
    it(`transfer #${i} moves balances and emits Transfer`, async function () {
      const { token, others } = await loadFixture(deployToken);
      const [a, b] = [others[i % 5], others[5 + (i % 5)]];
      const amount = BigInt(i + 1) * UNIT;
      await expect(by(token, a).transfer(b.address, amount)).to.changeTokenBalances(token, [a, b], [-amount, amount]);
      await expect(by(token, a).transfer(b.address, 1n)).to.emit(token, "Transfer").withArgs(a.address, b.address, 1n);
      expect(await token.balanceOf(b.address)).to.equal(amount + 1n);
    });
  }

  for (let i = 0; i < 15; i++) {
    it(`transfer #${i} beyond the balance reverts with InsufficientBalance`, async function () {
      const { token, others } = await loadFixture(deployToken);
      const poor = others[6 + (i % 5)];
      await expect(by(token, poor).transfer(others[0].address, BigInt(i + 1)))
        .to.be.revertedWithCustomError(token, "InsufficientBalance")
        .withArgs(poor.address, 0n, BigInt(i + 1));
    });
  }

  for (let i = 0; i < 15; i++) {
    it(`approve + transferFrom #${i}`, async function () {
      const { token, owner, others } = await loadFixture(deployToken);
      const spender = others[i % 5];
      await expect(token.approve(spender.address, 100n * UNIT))
        .to.emit(token, "Approval")
        .withArgs(owner.address, spender.address, 100n * UNIT);
      await by(token, spender).transferFrom(owner.address, others[9].address, 40n * UNIT);
      expect(await token.allowance(owner.address, spender.address)).to.equal(60n * UNIT);
      await expect(by(token, spender).transferFrom(owner.address, spender.address, 61n * UNIT)).to.be.revertedWithCustomError(token, "InsufficientAllowance");
    });
  }

  for (let i = 0; i < 10; i++) {
    it(`mint #${i}: owner only`, async function () {
      const { token, others } = await loadFixture(deployToken);
      await expect(by(token, others[i % 5]).mint(others[0].address, 1n))
        .to.be.revertedWithCustomError(token, "NotOwner")
        .withArgs(others[i % 5].address);
      const before = await token.totalSupply();
      await token.mint(others[i % 5].address, UNIT);
      expect(await token.totalSupply()).to.equal(before + UNIT);
    });
  }

  for (let i = 0; i < 10; i++) {
    it(`ether transfer #${i} changes ether balances`, async function () {
      const { owner, others } = await loadFixture(deployToken);
      await expect(owner.sendTransaction({ to: others[i].address, value: BigInt(i + 1) * UNIT })).to.changeEtherBalances([owner, others[i]], [-(BigInt(i + 1) * UNIT), BigInt(i + 1) * UNIT]);
    });
  }
});

describe("Registry", function () {
  for (let i = 0; i < 15; i++) {
    it(`register #${i}, then "taken"`, async function () {
      const { registry, others } = await loadFixture(deployToken);
      const name = `name-${i}`;
      await expect(by(registry, others[i % 10]).register(name))
        .to.emit(registry, "Registered")
        .withArgs(ethers.id(name), others[i % 10].address, 0n);
      await expect(registry.register(name)).to.be.revertedWith("taken");
      expect(await registry.count()).to.equal(1n);
    });
  }

  for (let i = 0; i < 5; i++) {
    it(`registerMany #${i} and panics`, async function () {
      const { registry } = await loadFixture(deployToken);
      await registry.registerMany(20 + i, i);
      expect(await registry.count()).to.equal(BigInt(20 + i));
      await expect(registry.at(100)).to.be.revertedWithPanic(PANIC_CODES.ARRAY_ACCESS_OUT_OF_BOUNDS);
      await expect(registry.divide(1, 0)).to.be.revertedWithPanic(PANIC_CODES.DIVISION_BY_ZERO);
    });
  }
});
