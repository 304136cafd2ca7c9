/**
 * The bech32 precompile (src/cosmos/bech32/precompile.ts) as contracts and clients reach it: through hre's
 * in-process chain (hardhat-ethers, a contract of ours calling it), and over the node's transports,
 * with cosmos/evm's error texts and each profile's prefixes.
 */
import { expect } from "chai";
import { ethers } from "hardhat";
import { bech32 } from "bech32";
import { BECH32_ABI, BECH32_PRECOMPILE } from "../../../src/cosmos/bech32/precompile";
import { EpochsConfigError, cosmosOptionsFromConfig, resolveEpochsConfig } from "../../../src/host/settings/epochs-config";
import { inProcess, rpcError } from "../../helpers/harness";
import { harnesses } from "../../helpers/matrix";

const ADDRESS = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266";
const encode = (prefix: string, hex: string): string => bech32.encode(prefix, bech32.toWords(ethers.getBytes(hex)));
/** The same string with its last checksum character changed. */
const corrupt = (s: string): string => s.slice(0, -1) + (s.endsWith("q") ? "p" : "q");

describe("the bech32 precompile on hre's chain (evmos profile)", function () {
  it("converts an address to bech32 and back, for any prefix, at a flat 6,000 gas", async () => {
    const precompile = await ethers.getContractAt("IBech32", BECH32_PRECOMPILE);
    const [signer] = await ethers.getSigners();
    const evmos = await precompile.hexToBech32.staticCall(signer.address, "evmos");
    expect(evmos).to.equal(encode("evmos", signer.address));
    expect(evmos).to.match(/^evmos1[02-9ac-hj-np-z]{38}$/);
    expect(await precompile.bech32ToHex.staticCall(evmos)).to.equal(signer.address);
    expect(await precompile.hexToBech32.staticCall(signer.address, "evmosvaloper")).to.equal(encode("evmosvaloper", signer.address));
    // a 32-byte module address: its last 20 bytes
    const wide = bech32.encode("cosmos", bech32.toWords(new Uint8Array(32).fill(7)));
    expect(await precompile.bech32ToHex.staticCall(wide)).to.equal(ethers.getAddress(`0x${"07".repeat(20)}`));
    // intrinsic 21,000 + calldata + the precompile's 6,000
    const data = BECH32_ABI.encodeFunctionData("bech32ToHex", [evmos]);
    const calldata = ethers.getBytes(data).reduce((g, b) => g + (b === 0 ? 4 : 16), 0);
    expect(await ethers.provider.estimateGas({ to: BECH32_PRECOMPILE, data })).to.equal(BigInt(21_000 + calldata + 6_000));
  });

  it("serves a contract: names its users in a transaction, reads them back, and sees a failure as a call that returns no data", async () => {
    const user = await ethers.deployContract("Bech32User");
    const [signer] = await ethers.getSigners();
    await expect(user.register("evmos")).to.emit(user, "Named").withArgs(signer.address, encode("evmos", signer.address));
    expect(await user.cosmosName(signer.address)).to.equal(encode("evmos", signer.address));
    expect(await user.owner.staticCall(encode("evmos", ADDRESS))).to.equal(ADDRESS);
    expect(await user.tryRegister.staticCall("")).to.deep.equal([false, "0x"]);
    await expect(user.register("")).to.be.reverted;
  });
});

for (const make of harnesses()) {
  describe(`the bech32 precompile over ${make.name}`, function () {
    const call = (h: { request: <T>(m: string, p?: unknown[]) => Promise<T> }, fn: "hexToBech32" | "bech32ToHex", args: unknown[]) =>
      h.request<string>("eth_call", [{ to: BECH32_PRECOMPILE, data: BECH32_ABI.encodeFunctionData(fn, args) }, "latest"]);

    it("answers with cosmos/evm's texts for bad input (in tests: Hardhat's words for a call that failed without data)", async () => {
      const h = await make.create({ epochs: { profile: "cosmos-evm" } });
      try {
        expect(BECH32_ABI.decodeFunctionResult("hexToBech32", await call(h, "hexToBech32", [ADDRESS, "cosmos"]))[0]).to.equal(encode("cosmos", ADDRESS));
        // each call made when its turn comes: a rejection made earlier and awaited later reads as an uncaught error
        const failures: Array<[() => Promise<unknown>, string | RegExp]> = [
          [
            () => call(h, "hexToBech32", [ADDRESS, " "]),
            "invalid bech32 human readable prefix (HRP). Please provide a either an account, validator or consensus address prefix (eg: cosmos, cosmosvaloper, cosmosvalcons)",
          ],
          [() => call(h, "bech32ToHex", [""]), "invalid bech32 address: "],
          [() => call(h, "bech32ToHex", ["no-separator"]), "invalid bech32 address: no-separator"],
          [() => call(h, "bech32ToHex", [corrupt(encode("cosmos", ADDRESS))]), /^decoding bech32 failed: /],
          [() => h.request("eth_call", [{ to: BECH32_PRECOMPILE, data: "0x12345678" }, "latest"]), "no method with id: 0x12345678"],
          [
            () => h.request("eth_call", [{ to: BECH32_PRECOMPILE, data: BECH32_ABI.getFunction("bech32ToHex")!.selector }, "latest"]),
            "abi: attempting to unmarshal an empty string while arguments are expected",
          ],
        ];
        for (const [p, text] of failures) {
          const err = await rpcError(p());
          if (make.name === "in-process") {
            // in tests, in Hardhat's words: the precompile returned no data
            expect(err.message).to.equal("Transaction reverted without a reason string");
            continue;
          }
          if (typeof text === "string") expect(err.message).to.equal(text);
          else expect(err.message).to.match(text);
          expect(err.code).to.equal(-32000);
        }
      } finally {
        await h.close();
      }
    });

    it("is left out when the config says so", async () => {
      const h = await make.create({ cosmos: { bech32: false } });
      try {
        // no precompile, no code: a call to the address returns nothing
        expect(await call(h, "hexToBech32", [ADDRESS, "evmos"])).to.equal("0x");
      } finally {
        await h.close();
      }
    });
  });
}

describe("the bech32 precompile's settings (epochs.precompiles)", () => {
  it("is on by default, off with bech32: false, and takes the chain's account prefix", async () => {
    expect(cosmosOptionsFromConfig(resolveEpochsConfig({}))).to.deep.equal({ bech32: {} });
    expect(cosmosOptionsFromConfig(resolveEpochsConfig({ precompiles: { bech32: false } }))).to.deep.equal({ bech32: false });
    const osmo = cosmosOptionsFromConfig(resolveEpochsConfig({ precompiles: { bech32: { prefix: "osmo" } } }));
    expect(osmo).to.deep.equal({ bech32: { prefix: "osmo" } });
    for (const bad of [
      { bech32: { prefix: "Osmo" } },
      { bech32: { prefix: "" } },
      { bech32: "yes" },
      { ibc: true },
      { bank: "yes" },
      { staking: { validators: [] } },
      { distribution: { communityTax: "2" } },
    ]) {
      expect(() => resolveEpochsConfig({ precompiles: bad as never }), JSON.stringify(bad)).to.throw(EpochsConfigError, /^invalid epochs\.precompiles/);
    }
    // the prefix names the chain's prefixes in the empty-prefix error
    const h = await inProcess({ cosmos: osmo });
    try {
      const data = BECH32_ABI.encodeFunctionData("hexToBech32", [ADDRESS, ""]);
      const out = await h.runtime.dispatcher.handle({ jsonrpc: "2.0", id: 1, method: "eth_call", params: [{ to: BECH32_PRECOMPILE, data }, "latest"] }, { transport: "http", authenticated: false });
      expect(out).to.deep.include({
        error: { code: -32000, message: "invalid bech32 human readable prefix (HRP). Please provide a either an account, validator or consensus address prefix (eg: osmo, osmovaloper, osmovalcons)" },
      });
    } finally {
      await h.close();
    }
  });
});
