/**
 * The P-256 verifier at 0x…0100 as Evmos v20 and cosmos/evm have it (src/cosmos/p256/precompile.ts): RIP-7212's
 * answers (32-byte 1 for a valid signature, nothing otherwise) at their 3,450 gas, under both
 * profiles and over every transport; with `p256: false` the EVM's own (EIP-7951 under Osaka, 6,900).
 */
import { createHash, generateKeyPairSync, sign } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { expect } from "chai";
import { Interface } from "ethers";
import { P256_PRECOMPILE } from "../../../src/cosmos/p256/precompile";
import { EpochsConfigError, cosmosOptionsFromConfig, resolveEpochsConfig } from "../../../src/host/settings/epochs-config";
import { type Harness, inProcess } from "../../helpers/harness";
import { harnesses } from "../../helpers/matrix";
import { compile } from "../../helpers/solc";

const ONE = `0x${"00".repeat(31)}01`;
const N = 0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551n;

/** RIP-7212's example: hash ‖ r ‖ s ‖ x ‖ y of a valid signature. */
const RIP7212_VALID =
  "0x4cee90eb86eaa050036147a12d49004b6b9c72bd725d39d4785011fe190f0b4da73bd4903f0ce3b639bbbf6e8e80d16931ff4bcf5993d58468e8fb19086e8cac36dbcd03009df8c59286b162af3bd7fcc0450c9aa81be5d10d312af6c66b1d604aebd3099c618202fcfe16ae7770b0c49ab5eadf74b754204a3bb6060e44eff37618b065f9832de4ca6ca971a7a1adc826d0f7c00181a5fb2ddf79ae00b4e10e";

const word = (n: bigint): string => n.toString(16).padStart(64, "0");
/** `input` with its 32-byte field `i` (0 hash, 1 r, 2 s, 3 x, 4 y) replaced. */
const withField = (input: string, i: number, value: bigint): string => `0x${input.slice(2, 2 + 64 * i)}${word(value)}${input.slice(2 + 64 * (i + 1))}`;

/** A fresh key's valid signature of `message`, as the precompile takes it. */
function signed(message: string): string {
  const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "prime256v1" });
  const hash = createHash("sha256").update(message).digest();
  const sig = sign("sha256", Buffer.from(message), { key: privateKey, dsaEncoding: "ieee-p1363" });
  const jwk = publicKey.export({ format: "jwk" });
  return `0x${Buffer.concat([hash, sig, Buffer.from(jwk.x as string, "base64url"), Buffer.from(jwk.y as string, "base64url")]).toString("hex")}`;
}

// the package's library (contracts/precompiles/P256.sol) and a probe that calls the precompile with a given gas
const PROBE = compile(`${readFileSync(path.join(__dirname, "../../../contracts/precompiles/P256.sol"), "utf8")}
contract P256Probe {
    /// The verifier's answer to \`input\` when the call may use \`gas\`.
    function verify(bytes calldata input, uint256 gas) external view returns (bool ok, bytes memory out) {
        (ok, out) = address(0x100).staticcall{gas: gas}(input);
    }
    function check(bytes32 hash, bytes32 r, bytes32 s, bytes32 x, bytes32 y) external view returns (bool) {
        return P256.verify(hash, r, s, x, y);
    }
}
`).P256Probe;
const probe = new Interface(PROBE.abi as never);

type Verify = ((input: string, gas: number) => Promise<[boolean, string]>) & { library(input: string): Promise<boolean> };

async function deployProbe(h: Harness): Promise<Verify> {
  const [from] = await h.request<string[]>("eth_accounts");
  const hash = await h.request<string>("eth_sendTransaction", [{ from, data: PROBE.bytecode }]);
  const to = (await h.request<{ contractAddress: string }>("eth_getTransactionReceipt", [hash])).contractAddress;
  const call = (fn: string, args: unknown[]) => h.request<string>("eth_call", [{ to, data: probe.encodeFunctionData(fn, args) }, "latest"]);
  const verify = async (input: string, gas: number): Promise<[boolean, string]> => {
    const [ok, data] = probe.decodeFunctionResult("verify", await call("verify", [input, gas]));
    return [ok as boolean, data as string];
  };
  const fields = (input: string): string[] => Array.from({ length: 5 }, (_, i) => `0x${input.slice(2 + 64 * i, 2 + 64 * (i + 1))}`);
  return Object.assign(verify, { library: async (input: string) => probe.decodeFunctionResult("check", await call("check", fields(input)))[0] as boolean });
}

for (const make of harnesses()) {
  for (const profile of ["evmos", "cosmos-evm"] as const) {
    describe(`the P-256 precompile (0x…0100) under ${profile}, over ${make.name}`, function () {
      this.timeout(60_000);
      let h: Harness;
      before(async () => {
        h = await make.create({ epochs: { profile } });
      });
      after(() => h?.close());

      it("verifies RIP-7212's vectors and refuses bad ones, at the chains' 3,450 gas", async () => {
        const verify = await deployProbe(h);
        const fresh = signed(`hardhat-epochs ${profile}`);
        for (const valid of [RIP7212_VALID, fresh]) {
          expect(await verify(valid, 3450)).to.deep.equal([true, ONE]);
          // one gas less: the call runs out of gas (EIP-7951's 6,900 would fail at any gas below it)
          expect((await verify(valid, 3449))[0]).to.equal(false);
        }
        const bad = [
          withField(RIP7212_VALID, 0, 1n), // another hash
          withField(RIP7212_VALID, 1, 0n), // r = 0
          withField(RIP7212_VALID, 2, N), // s = n
          withField(RIP7212_VALID, 3, 1n), // a point off the curve
          withField(withField(RIP7212_VALID, 3, 0n), 4, 0n), // the point at infinity
          RIP7212_VALID.slice(0, -2), // 159 bytes
          `${RIP7212_VALID}00`, // 161 bytes
          "0x",
        ];
        // nothing out, the call succeeds and costs the same 3,450
        for (const input of bad) expect(await verify(input, 3450), input).to.deep.equal([true, "0x"]);
        // the precompile itself, called directly, and through the package's library
        expect(await h.request("eth_call", [{ to: P256_PRECOMPILE, data: RIP7212_VALID }, "latest"])).to.equal(ONE);
        expect(await verify.library(fresh)).to.equal(true);
        expect(await verify.library(withField(fresh, 0, 1n))).to.equal(false);
      });
    });
  }
}

describe("the P-256 precompile left out (`epochs.precompiles.p256: false`)", function () {
  this.timeout(60_000);

  it("gives the EVM's own back: EIP-7951 under Osaka, 6,900 gas", async () => {
    const h = await inProcess({ cosmos: { p256: false } });
    try {
      const verify = await deployProbe(h);
      expect((await verify(RIP7212_VALID, 3450))[0]).to.equal(false);
      expect(await verify(RIP7212_VALID, 6900)).to.deep.equal([true, ONE]);
    } finally {
      await h.close();
    }
  });

  it("is a boolean in the config", () => {
    expect(cosmosOptionsFromConfig(resolveEpochsConfig({ precompiles: { p256: false } })).p256).to.equal(false);
    expect(cosmosOptionsFromConfig(resolveEpochsConfig({})).p256).to.equal(undefined);
    expect(() => resolveEpochsConfig({ precompiles: { p256: "no" as never } })).to.throw(EpochsConfigError, 'invalid epochs.precompiles.p256 "no": expected true or false');
  });
});
