/**
 * hardhat-ethers' signers on this chain: `signer.signMessage()` sends Hardhat's
 * `personal_sign(data, address)`, `signTypedData()` sends eth_signTypedData_v4; both verify with ethers.
 * A key-store account shows up in getSigners() after the dev accounts and signs once unlocked.
 */
import { expect } from "chai";
import hre, { ethers } from "hardhat";

describe("hardhat-ethers signers: signMessage and signTypedData", function () {
  this.timeout(60_000);

  it("signMessage (personal_sign without password) verifies with ethers.verifyMessage", async () => {
    const [signer, other] = await ethers.getSigners();
    const sig = await signer.signMessage("hello from hardhat-epochs");
    expect(ethers.verifyMessage("hello from hardhat-epochs", sig)).to.equal(signer.address);
    const bytes = ethers.toUtf8Bytes("bytes too");
    expect(ethers.verifyMessage(bytes, await other.signMessage(bytes))).to.equal(other.address);
    const recovered = await hre.network.provider.request({ method: "personal_ecRecover", params: [ethers.hexlify(bytes), await other.signMessage(bytes)] });
    expect(recovered).to.equal(other.address.toLowerCase());
  });

  it("signTypedData verifies with ethers.verifyTypedData", async () => {
    const [signer] = await ethers.getSigners();
    const domain = { name: "Permit", version: "1", chainId: (await ethers.provider.getNetwork()).chainId, verifyingContract: "0x000000000000000000000000000000000000dEaD" };
    const types = {
      Permit: [
        { name: "owner", type: "address" },
        { name: "value", type: "uint256" },
      ],
    };
    const value = { owner: signer.address, value: 42n };
    const sig = await signer.signTypedData(domain, types, value);
    expect(ethers.verifyTypedData(domain, types, value, sig)).to.equal(signer.address);
  });

  it("a key-store account is a signer after the dev accounts, usable once unlocked", async () => {
    const provider = hre.network.provider;
    const before = await ethers.getSigners();
    const address = (await provider.request({ method: "personal_importRawKey", params: ["0x" + "7e".repeat(32), "pw"] })) as string;
    const signers = await ethers.getSigners();
    expect(signers.length).to.equal(before.length + 1);
    const stored = signers[signers.length - 1];
    expect(stored.address.toLowerCase()).to.equal(address);
    await before[0].sendTransaction({ to: stored.address, value: ethers.parseEther("1") });
    await expect(stored.sendTransaction({ to: before[0].address, value: 1n })).to.be.rejectedWith("authentication needed: password or unlock");
    await provider.request({ method: "personal_unlockAccount", params: [address, "pw", 30] });
    try {
      const tx = await stored.sendTransaction({ to: before[0].address, value: 1n });
      expect((await tx.wait())?.status).to.equal(1);
      expect(ethers.verifyMessage("x", await stored.signMessage("x"))).to.equal(stored.address);
    } finally {
      await provider.request({ method: "personal_lockAccount", params: [address] });
    }
  });
});
