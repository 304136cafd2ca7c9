import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { network } from "hardhat";
import { getAddress, parseEther, toHex } from "viem";

/** The gov precompile; the staking and distribution precompiles sit at 0x…0800 and 0x…0801. */
const GOV = "0x0000000000000000000000000000000000000805";
const YES = 1;

describe("StakingVault", async function () {
  const { viem, epochs, networkHelpers } = await network.create();
  const [operator, alice, bob] = await viem.getWalletClients();
  // the chain's one validator, operated by the first account
  const validator = await epochs.cosmos.valoper(operator.account.address);

  async function deployed() {
    return { vault: await viem.deployContract("StakingVault", [validator]) };
  }

  it("delegates deposits through the staking precompile and hands out shares", async function () {
    const { vault } = await networkHelpers.loadFixture(deployed);
    await viem.assertions.emitWithArgs(vault.write.deposit({ value: parseEther("100"), account: alice.account }), vault, "Deposited", [
      getAddress(alice.account.address),
      parseEther("100"),
      parseEther("100"),
    ]);
    assert.equal(await vault.read.totalAssets(), parseEther("100"));
    // the chain's own view of the delegation (cosmos_delegations, as the SDK's REST answers it)
    const [delegation] = await epochs.cosmos.delegations(vault.address);
    assert.equal(delegation.balance.amount, parseEther("100").toString());
  });

  it("compounds its rewards at each day's end: the chain calls its afterEpochEnd hook", async function () {
    const { vault } = await networkHelpers.loadFixture(deployed);
    await vault.write.deposit({ value: parseEther("100"), account: alice.account });
    await epochs.assertions.hookCalled(epochs.advance("day"), vault, "afterEpochEnd");
    const rewards = await vault.read.compounded();
    assert.ok(rewards > 0n, "the day's rewards were claimed");
    // claimed and staked again: the shares are worth more
    assert.equal(await vault.read.totalAssets(), parseEther("100") + rewards);
    const [delegation] = await epochs.cosmos.delegations(vault.address);
    assert.equal(BigInt(delegation.balance.amount), parseEther("100") + rewards);
  });

  it("votes on a proposal with its stake, through the gov precompile", async function () {
    const { vault } = await networkHelpers.loadFixture(deployed);
    await vault.write.deposit({ value: parseEther("100"), account: alice.account });
    const gov = await viem.getContractAt("IGov", GOV);
    const proposal = JSON.stringify({ messages: [], metadata: "", title: "raise the roof", summary: "a text proposal", expedited: false });
    // a deposit over min_deposit: straight into the voting period
    await gov.write.submitProposal([bob.account.address, toHex(proposal), [{ denom: "atest", amount: parseEther("1") }]], { account: bob.account });
    await vault.write.vote([1n, YES]);
    // the vault's 100 coins of stake, yes, as the tally stands
    const tally = await gov.read.getTallyResult([1n]);
    assert.equal(tally.yes, parseEther("100").toString());
    await viem.assertions.revertWithCustomError(vault.write.vote([1n, YES], { account: alice.account }), vault, "OnlyOwner");
  });

  it("takes hook calls only from the chain", async function () {
    const { vault } = await networkHelpers.loadFixture(deployed);
    await viem.assertions.revertWithCustomError(vault.write.afterEpochEnd(["day", 1n]), vault, "OnlyChain");
  });
});
