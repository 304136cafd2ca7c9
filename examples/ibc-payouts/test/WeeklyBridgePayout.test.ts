import { expect } from "chai";
import hre, { ethers } from "hardhat";
import { loadFixture, time } from "@nomicfoundation/hardhat-network-helpers";
import type { Contract } from "ethers";

const ATOM = 1_000_000n; // uatom: 6 decimals

describe("WeeklyBridgePayout", () => {
  async function deployed() {
    const [, alice, bob] = await ethers.getSigners();
    // ATOM arrives from the Cosmos Hub over channel-0: this chain mints the voucher ibc/… and pairs it as an ERC-20
    const arrived = await hre.epochs.cosmos.receiveTransfer({ channel: "channel-0", denom: "uatom", amount: 1_000n * ATOM, receiver: alice.address });
    const atom = await ethers.getContractAt("IERC20Precompile", arrived.erc20_address as string);
    // the payouts go to Bob's address on the Hub
    const hubReceiver = await hre.epochs.cosmos.account(bob.address);
    const treasury = await ethers.deployContract("WeeklyBridgePayout", [arrived.erc20_address, arrived.denom, "channel-0", hubReceiver]);
    const as = (signer: typeof alice) => ({ atom: atom.connect(signer) as Contract, treasury: treasury.connect(signer) as Contract });
    const contribute = async (amount: bigint) => {
      await as(alice).atom.approve(await treasury.getAddress(), amount);
      await as(alice).treasury.contribute(amount);
    };
    return { atom, treasury, denom: arrived.denom, alice, hubReceiver, contribute };
  }

  it("takes the IBC token through its ERC-20 precompile: the bank balance moves", async () => {
    const { atom, treasury, denom, alice, contribute } = await loadFixture(deployed);
    expect(await atom.balanceOf(alice.address)).to.equal(1_000n * ATOM);
    await contribute(300n * ATOM);
    expect(await atom.balanceOf(await treasury.getAddress())).to.equal(300n * ATOM);
    expect(await hre.epochs.cosmos.balance(await treasury.getAddress(), denom)).to.equal(300n * ATOM);
    expect(await treasury.contributed(alice.address)).to.equal(300n * ATOM);
  });

  it("sends everything to the Hub at the week's end; acknowledged, the vouchers are gone home", async () => {
    const { atom, treasury, denom, hubReceiver, contribute } = await loadFixture(deployed);
    await contribute(300n * ATOM);
    await hre.epochs.advance("week");
    expect(await treasury.payoutCount()).to.equal(1n);
    const [, sequence, amount] = await treasury.payouts(0);
    expect([sequence, amount]).to.deep.equal([1n, 300n * ATOM]);
    const [packet] = await hre.epochs.cosmos.packets("channel-0");
    // the voucher goes back over the channel it came through: burned here, not escrowed
    expect(packet).to.deep.include({ sequence: "1", denom: "transfer/channel-0/uatom", local_denom: denom, amount: (300n * ATOM).toString(), receiver: hubReceiver, state: "pending", burned: true, memo: "weekly payout" });
    expect(await atom.totalSupply()).to.equal(700n * ATOM);
    await hre.epochs.cosmos.acknowledge("channel-0", 1);
    expect(await atom.balanceOf(await treasury.getAddress())).to.equal(0n);
    expect(await atom.totalSupply()).to.equal(700n * ATOM);
  });

  it("gets a refused payout back (an error acknowledgement) and sends it again the next week", async () => {
    const { atom, treasury, contribute } = await loadFixture(deployed);
    await contribute(300n * ATOM);
    await hre.epochs.advance("week");
    await hre.epochs.cosmos.errorAcknowledge("channel-0", 1, "receiver account is blocked");
    expect(await atom.balanceOf(await treasury.getAddress())).to.equal(300n * ATOM);
    await contribute(50n * ATOM);
    await hre.epochs.advance("week");
    const [, sequence, amount] = await treasury.payouts(1);
    expect([sequence, amount]).to.deep.equal([2n, 350n * ATOM]);
    expect((await hre.epochs.cosmos.packets()).map((p) => [p.sequence, p.state, p.fate])).to.deep.equal([
      ["1", "refunded", "error"],
      ["2", "pending", undefined],
    ]);
  });

  it("gets back a payout the Hub did not receive within its day: it times out", async () => {
    const { atom, treasury, contribute } = await loadFixture(deployed);
    await contribute(120n * ATOM);
    await hre.epochs.advance("week");
    expect(await atom.balanceOf(await treasury.getAddress())).to.equal(0n);
    // nobody relays it: the block a day later times it out and refunds the treasury
    await time.increase(24 * 3600 - 1);
    expect((await hre.epochs.cosmos.packets())[0].state).to.equal("pending");
    await time.increase(1);
    expect((await hre.epochs.cosmos.packets())[0]).to.deep.include({ state: "refunded", fate: "timeout" });
    expect(await atom.balanceOf(await treasury.getAddress())).to.equal(120n * ATOM);
    expect(await atom.totalSupply()).to.equal(1_000n * ATOM);
  });

  it("a test can also time a payout out at once (a timeout at a height, say)", async () => {
    const { atom, treasury, contribute } = await loadFixture(deployed);
    await contribute(80n * ATOM);
    await hre.epochs.advance("week");
    await hre.epochs.cosmos.timeout("channel-0", 1);
    expect(await atom.balanceOf(await treasury.getAddress())).to.equal(80n * ATOM);
  });

  it("takes hook calls only from the chain", async () => {
    const { treasury, alice } = await loadFixture(deployed);
    await expect((treasury.connect(alice) as Contract).afterEpochEnd("week", 1)).to.be.revertedWithCustomError(treasury, "OnlyChain");
  });
});
