/**
 * Failures as Hardhat users see them, through hardhat-ethers and the chai matchers on the project's
 * own contracts (compiled by `npx hardhat compile`; the chain reads the build-info files when it
 * starts): Hardhat's messages, the revert data the matchers decode, and Solidity frames in the stack.
 */
import { expect } from "chai";
import hre, { ethers } from "hardhat";
import { ProviderError } from "hardhat/internal/core/providers/errors";
import type { Contract } from "ethers";

const VAULT = "contracts/test/Vault.sol";
const REVERTER = "contracts/test/Reverter.sol";

/** The error a call throws (hardhat-ethers passes the provider's error through as its cause or itself). */
async function failure(p: Promise<unknown>): Promise<Error & { data?: string; transactionHash?: string }> {
  try {
    await p;
  } catch (err) {
    return err as Error & { data?: string };
  }
  throw new Error("expected a failure");
}

function frames(err: Error): string[] {
  return (err.stack ?? "")
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => /\.sol:\d+\)$/.test(l));
}

describe("Solidity stack traces through hardhat-ethers and the chai matchers", () => {
  let vault: Contract;
  let reverter: Contract;

  before(async () => {
    reverter = (await ethers.deployContract("Reverter", [60])) as unknown as Contract;
    vault = (await ethers.deployContract("Vault", [await reverter.getAddress()])) as unknown as Contract;
  });

  it("keeps the chai matchers working: reason, custom error with arguments, panic, no reason", async () => {
    const [me] = await ethers.getSigners();
    await expect(vault.relay()).to.be.revertedWith("Reverter: no way");
    await expect(vault.withdraw(5)).to.be.revertedWithCustomError(vault, "Overdrawn").withArgs(me.address, 5, 0);
    await expect(vault.subtract(1, 2)).to.be.revertedWithPanic(0x11);
    await expect(reverter.withoutReason()).to.be.revertedWithoutReason();
  });

  it("says what Hardhat says, with the function and line of each contract", async () => {
    const relay = await failure(vault.relay());
    expect(relay.message).to.include("VM Exception while processing transaction: reverted with reason string 'Reverter: no way'");
    const raw = await failure(hre.network.provider.request({ method: "eth_call", params: [{ to: await vault.getAddress(), data: vault.interface.encodeFunctionData("relay") }] }));
    expect(raw.message).to.equal("VM Exception while processing transaction: reverted with reason string 'Reverter: no way'");
    expect(frames(raw)).to.deep.equal([`at Reverter.withReason (${REVERTER}:18)`, `at Vault.relay (${VAULT}:32)`]);

    const [me] = await ethers.getSigners();
    const tx = await failure(
      hre.network.provider.request({ method: "eth_sendTransaction", params: [{ from: me.address, to: await vault.getAddress(), data: vault.interface.encodeFunctionData("withdraw", [5]) }] }),
    );
    expect(tx.message).to.equal(`VM Exception while processing transaction: reverted with custom error 'Overdrawn("${me.address}", 5, 0)'`);
    expect(frames(tx)).to.deep.equal([`at Vault.withdraw (${VAULT}:22)`]);
    expect(tx.transactionHash).to.match(/^0x[0-9a-f]{64}$/);
    expect(vault.interface.parseError(tx.data as string)?.name).to.equal("Overdrawn");

    const panic = await failure(hre.network.provider.request({ method: "eth_call", params: [{ to: await vault.getAddress(), data: vault.interface.encodeFunctionData("subtract", [1, 2]) }] }));
    expect(panic.message).to.equal("VM Exception while processing transaction: reverted with panic code 0x11 (Arithmetic operation overflowed outside of an unchecked block)");
    expect(frames(panic)).to.deep.equal([`at Vault.subtract (${VAULT}:28)`]);

    const value = await failure(
      hre.network.provider.request({ method: "eth_estimateGas", params: [{ from: me.address, to: await vault.getAddress(), data: vault.interface.encodeFunctionData("reset"), value: "0x1" }] }),
    );
    expect(value.message).to.equal("Transaction reverted: non-payable function was called with value 1");
    expect(frames(value)).to.deep.equal([`at Vault.reset (${VAULT}:35)`]);
  });

  it("answers refusals with Hardhat's ProviderError and text", async () => {
    const [me] = await ethers.getSigners();
    const balance = await ethers.provider.getBalance(me.address);
    const err = await failure(me.sendTransaction({ to: await vault.getAddress(), value: balance, data: vault.interface.encodeFunctionData("deposit") }));
    expect(err.message).to.match(/Sender doesn't have enough funds to send tx\. The max upfront cost is: \d+ and the sender's balance is: \d+\./);
    const direct = await failure(hre.network.provider.request({ method: "eth_sendTransaction", params: [{ from: me.address, to: me.address, value: `0x${balance.toString(16)}` }] }));
    expect(direct).to.be.instanceOf(ProviderError);
    expect(await hre.network.provider.request({ method: "hardhat_getStackTraceFailuresCount" })).to.equal(0);
  });
});
