/**
 * What Hardhat's own plugin suites (hardhat-network-helpers, hardhat-chai-matchers) rely on and this
 * chain once did differently (docs/hardhat-plugin-suites.md), written the way a project's tests use
 * the helpers: through `hre.network.provider` and hardhat-ethers.
 */
import { expect } from "chai";
import hre, { ethers } from "hardhat";
import * as helpers from "@nomicfoundation/hardhat-network-helpers";

describe("network helpers and chai matchers as Hardhat's suites use them", function () {
  this.timeout(60_000);
  const provider = hre.network.provider;

  it("an impersonated account's pooled transaction is listed by eth_pendingTransactions and dropped by dropTransaction", async () => {
    const account = "0x000000000000000000000000000000000000bEEF";
    const recipient = "0x000000000000000000000000000000000000BEEe";
    await helpers.setBalance(account, ethers.parseEther("1"));
    await helpers.impersonateAccount(account);
    await provider.send("evm_setAutomine", [false]);
    try {
      const hash = (await provider.send("eth_sendTransaction", [{ from: account, to: recipient, value: "0x1" }])) as string;
      const pending = (await provider.send("eth_pendingTransactions", [])) as Array<{ hash: string; from: string }>;
      const listed = pending.find((t) => t.hash === hash);
      // the recorded sender, not the throwaway key that signs impersonated transactions
      expect(listed?.from).to.equal(account.toLowerCase());
      expect(await helpers.dropTransaction(hash)).to.equal(true);
      expect(((await provider.send("eth_pendingTransactions", [])) as Array<{ hash: string }>).map((t) => t.hash)).to.not.include(hash);
      await helpers.mine();
      expect(await ethers.provider.getTransactionReceipt(hash)).to.equal(null);
    } finally {
      await provider.send("evm_setAutomine", [true]);
      await helpers.stopImpersonatingAccount(account);
    }
  });

  it("eth_estimateGas without `from` is sent by the first dev account, so a transfer with value and fees estimates (as on Hardhat's network)", async () => {
    const [sender, receiver] = await ethers.getSigners();
    const gasPrice = ethers.parseUnits("10", "gwei");
    const tx = { to: receiver.address, gasPrice, value: 200n };
    // from the zero address (geth's default caller) these fail: it has no funds for the value and fees
    const gas = await ethers.provider.estimateGas(tx);
    expect(gas).to.equal(21_000n);
    await expect(() => sender.sendTransaction(tx)).to.changeEtherBalance(sender, -(gas * gasPrice + 200n), { includeFee: true });
    // a call without `from` with value succeeds too (in tests the caller's balance is not checked)
    expect(await provider.send("eth_call", [{ to: receiver.address, value: "0xc8" }, "latest"])).to.equal("0x");
  });

  it("snapshot ids start over after hardhat_reset (takeSnapshot before and after a reset agree)", async () => {
    await helpers.reset();
    const first = await helpers.takeSnapshot();
    await helpers.mine(3);
    await helpers.reset();
    const again = await helpers.takeSnapshot();
    expect(again.snapshotId).to.equal(first.snapshotId);
    expect(await helpers.time.latestBlock()).to.equal(0);
    // and the snapshot taken on the reset chain restores it
    await helpers.mine(2);
    await again.restore();
    expect(await helpers.time.latestBlock()).to.equal(0);
  });
});
