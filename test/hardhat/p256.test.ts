/**
 * The secp256r1 (P-256) verification precompile at 0x100: the Cosmos chains' on this chain (at any
 * hardfork: test/cosmos/p256/p256.test.ts), RIP-7212 on Hardhat's EDR network with `enableRip7212`. A valid
 * signature answers the 32-byte word 1, an invalid one nothing, on both. Without the chains' (`p256:
 * false`) the EVM's rule is back: Osaka's EIP-7951, and `enableRip7212` brings it before Osaka.
 */
import { createHash, generateKeyPairSync, sign } from "node:crypto";
import { expect } from "chai";
import hre from "hardhat";
import { createProvider } from "hardhat/internal/core/providers/construction";
import type { HardhatConfig } from "hardhat/types";
import { type Harness, inProcess, testChainConfig } from "../helpers/harness";

const P256 = "0x0000000000000000000000000000000000000100";
const ONE = `0x${"00".repeat(31)}01`;

/** hash ‖ r ‖ s ‖ x ‖ y, each 32 bytes: the precompile's input. */
function p256Input(message: string): { valid: string; badSignature: string; badKey: string } {
  const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "prime256v1" });
  const hash = createHash("sha256").update(message).digest();
  const sig = sign("sha256", Buffer.from(message), { key: privateKey, dsaEncoding: "ieee-p1363" }); // r ‖ s of sha256(message)
  const jwk = publicKey.export({ format: "jwk" });
  const x = Buffer.from(jwk.x as string, "base64url");
  const y = Buffer.from(jwk.y as string, "base64url");
  const hex = (...parts: Buffer[]) => `0x${Buffer.concat(parts).toString("hex")}`;
  const flipped = Buffer.from(sig);
  flipped[40] ^= 0x01;
  const otherKey = Buffer.from(x);
  otherKey[5] ^= 0x01;
  return { valid: hex(hash, sig, x, y), badSignature: hex(hash, flipped, x, y), badKey: hex(hash, sig, otherKey, y) };
}

describe("P-256 verification precompile (0x100)", function () {
  this.timeout(120_000);
  let ours: Harness;
  let prague: Harness;
  let praguePlain: Harness;

  before(async () => {
    ours = await inProcess();
    prague = await inProcess({ chain: testChainConfig({ hardfork: "prague", enableRip7212: true }), cosmos: { p256: false } });
    praguePlain = await inProcess({ chain: testChainConfig({ hardfork: "prague" }), cosmos: { p256: false } });
  });
  after(async () => {
    await ours.close();
    await prague.close();
    await praguePlain.close();
  });

  it("answers 1 for a valid signature and nothing for an invalid one, as EDR with enableRip7212", async () => {
    const config = { ...hre.config, networks: { ...hre.config.networks, hardhat: { ...hre.config.networks.hardhat, enableRip7212: true } } } as HardhatConfig;
    const edr = await createProvider(config, "hardhat");
    const input = p256Input("hardhat-epochs");
    for (const data of [input.valid, input.badSignature, input.badKey, "0x1234"]) {
      const theirs = await edr.request({ method: "eth_call", params: [{ to: P256, data }] });
      const mine = await ours.request("eth_call", [{ to: P256, data }]);
      expect(mine, data).to.equal(theirs);
    }
    expect(await ours.request("eth_call", [{ to: P256, data: input.valid }])).to.equal(ONE);
    expect(await ours.request("eth_call", [{ to: P256, data: input.badSignature }])).to.equal("0x");
  });

  it("without the chains' precompile, is there before Osaka only with enableRip7212", async () => {
    const input = p256Input("before osaka");
    expect(await prague.request("eth_call", [{ to: P256, data: input.valid }])).to.equal(ONE);
    expect(await prague.request("eth_call", [{ to: P256, data: input.badKey }])).to.equal("0x");
    expect(await praguePlain.request("eth_call", [{ to: P256, data: input.valid }])).to.equal("0x");
  });
});
