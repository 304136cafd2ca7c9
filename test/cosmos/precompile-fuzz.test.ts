/**
 * Every method of every precompile of the chain, sent as transactions with ABI-shaped garbage:
 * strings that are not UTF-8, truncated words, huge offsets and lengths, wrong selectors. None may
 * reach past the EVM's boundary (src/chain/engine/evm.ts `runPrecompile`, src/chain/base/precompile.ts):
 * each transaction is mined (failed or not), no precompile reports a fault of the node, and after
 * each the head's state reads and a plain transfer is mined. Seeded: a failing seed replays with
 * PRECOMPILE_FUZZ_SEED.
 */
import { expect } from "chai";
import { type FunctionFragment, Interface, type ParamType, Wallet, ZeroAddress, concat, getBytes, hexlify, toBeHex } from "ethers";
import { serveHttp } from "../helpers/http";
import { type Harness, testChainConfig } from "../helpers/harness";
import { mulberry32 } from "../helpers/prng";
import { NATIVE_ERC20, BANK_ABI } from "../../src/cosmos/bank/precompile";
import { BECH32_ABI, BECH32_PRECOMPILE } from "../../src/cosmos/bech32/precompile";
import { WERC20_ABI } from "../../src/cosmos/erc20/precompile";
import { STAKING_ABI } from "../../src/cosmos/staking/precompile";
import { STAKING_PRECOMPILE } from "../../src/cosmos/staking/types";
import { DISTRIBUTION_ABI } from "../../src/cosmos/distribution/precompile";
import { DISTRIBUTION_PRECOMPILE } from "../../src/cosmos/distribution/keeper";
import { ICS20_ABI } from "../../src/cosmos/ics20/precompile";
import { ICS20_PRECOMPILE } from "../../src/cosmos/ics20/keeper";
import { GOV_PRECOMPILE } from "../../src/cosmos/gov/keeper";
import { GOV_ABI } from "../../src/cosmos/gov/precompile";
import { SLASHING_ABI } from "../../src/cosmos/slashing/precompile";
import { SLASHING_PRECOMPILE } from "../../src/cosmos/slashing/keeper";
import { EPOCHS_ABI, EPOCHS_PRECOMPILE } from "../../src/epochs/precompile";

const KEY = "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80";
const OTHER = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const BANK = "0x0000000000000000000000000000000000000804";
const ROUNDS = Number(process.env.PRECOMPILE_FUZZ_ROUNDS ?? 300);

const TARGETS: Array<{ address: string; abi: Interface }> = [
  { address: STAKING_PRECOMPILE, abi: STAKING_ABI },
  { address: DISTRIBUTION_PRECOMPILE, abi: DISTRIBUTION_ABI },
  { address: ICS20_PRECOMPILE, abi: ICS20_ABI },
  { address: GOV_PRECOMPILE, abi: GOV_ABI },
  { address: SLASHING_PRECOMPILE, abi: SLASHING_ABI },
  { address: NATIVE_ERC20, abi: WERC20_ABI },
  { address: EPOCHS_PRECOMPILE, abi: EPOCHS_ABI },
  { address: BECH32_PRECOMPILE, abi: BECH32_ABI },
  { address: BANK, abi: BANK_ABI },
];

/** A value of `type` that encodes, drawn from `rnd`: strings of a few characters, short lists. */
function value(type: ParamType, rnd: () => number): unknown {
  if (type.baseType === "array") {
    const n = type.arrayLength !== null && type.arrayLength >= 0 ? type.arrayLength : Math.floor(rnd() * 3);
    return Array.from({ length: n }, () => value(type.arrayChildren as ParamType, rnd));
  }
  if (type.baseType === "tuple") return (type.components ?? []).map((c) => value(c, rnd));
  if (type.baseType === "address") return rnd() < 0.5 ? ZeroAddress : OTHER;
  if (type.baseType === "string") return ["", "evmos1", "channel-0", "aevmos", "transfer", "x".repeat(40)][Math.floor(rnd() * 6)];
  if (type.baseType === "bool") return rnd() < 0.5;
  if (type.baseType === "bytes") return hexlify(Uint8Array.from({ length: Math.floor(rnd() * 40) }, () => Math.floor(rnd() * 256)));
  if (type.baseType.startsWith("bytes")) return hexlify(Uint8Array.from({ length: Number(type.baseType.slice(5)) }, () => Math.floor(rnd() * 256)));
  const bits = Number(/\d+$/.exec(type.type)?.[0] ?? 256);
  const signed = type.baseType.startsWith("int");
  const v = BigInt(Math.floor(rnd() * 1e9)) * (rnd() < 0.2 ? 10n ** 18n : 1n);
  const max = (1n << BigInt(signed ? bits - 1 : bits)) - 1n;
  return v > max ? max : v;
}

/** `data` (a method's calldata) made into garbage of one kind. */
function mangle(data: Uint8Array, rnd: () => number): { data: Uint8Array; how: string } {
  const words = Math.floor((data.length - 4) / 32);
  const out = Uint8Array.from(data);
  const word = (i: number, v: bigint) => out.set(getBytes(toBeHex(v, 32)), 4 + i * 32);
  switch (Math.floor(rnd() * 7)) {
    case 0: {
      // every run of printable bytes (a string's content) gets bytes that are not UTF-8
      let done = false;
      for (let i = 4; i + 1 < out.length; i++) if (out[i] >= 0x61 && out[i] <= 0x7a) ((out[i] = 0xff), (out[i + 1] = 0xfe), (done = true));
      return { data: done ? out : (concat([out, "0xfffe"]) as unknown as Uint8Array), how: "not UTF-8" };
    }
    case 1:
      return { data: out.subarray(0, 4 + Math.floor(rnd() * Math.max(1, out.length - 4))), how: "truncated" };
    case 2:
      if (words > 0) word(Math.floor(rnd() * words), (1n << 255n) + BigInt(Math.floor(rnd() * 1e6)));
      return { data: out, how: "a huge offset or length" };
    case 3:
      if (words > 0) word(Math.floor(rnd() * words), 0xffffffffn);
      return { data: out, how: "a length past the data" };
    case 4:
      out.set(
        Uint8Array.from({ length: 4 }, () => Math.floor(rnd() * 256)),
        0,
      );
      return { data: out, how: "a wrong selector" };
    case 5:
      return { data: out.subarray(0, Math.floor(rnd() * 4)), how: "fewer than 4 bytes" };
    default:
      for (let i = 4; i < out.length; i++) if (rnd() < 0.05) out[i] = Math.floor(rnd() * 256);
      return { data: out, how: "flipped bytes" };
  }
}

describe("precompile fuzz: garbage in transactions never crosses the EVM's boundary", function () {
  this.timeout(300_000);
  const seed = Number(process.env.PRECOMPILE_FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31));
  let h: Harness;
  before(async () => {
    h = await serveHttp({ chain: testChainConfig({ throwOnTransactionFailures: false }), epochs: { profile: "cosmos-evm" } });
  });
  after(async () => h.close());

  it(`${ROUNDS} transactions of every precompile's methods, mangled, each followed by a read and a transfer (seed ${seed}; replay with PRECOMPILE_FUZZ_SEED)`, async () => {
    const rnd = mulberry32(seed);
    const wallet = new Wallet(KEY);
    const chainId = BigInt(await h.request<string>("eth_chainId"));
    const faults: string[] = [];
    h.runtime.node.on("precompileFault", (address, err) => faults.push(`${address}: ${err.message}`));
    let nonce = Number(await h.request<string>("eth_getTransactionCount", [wallet.address, "pending"]));
    const send = async (tx: { to: string; data?: Uint8Array; value?: bigint; gasLimit: number }): Promise<{ status: string }> => {
      const raw = await wallet.signTransaction({ ...tx, data: tx.data === undefined ? "0x" : hexlify(tx.data), chainId, nonce: nonce++, maxFeePerGas: 10n ** 10n, maxPriorityFeePerGas: 1n });
      const hash = await h.request<string>("eth_sendRawTransaction", [raw]);
      return h.request("eth_getTransactionReceipt", [hash]);
    };
    for (let round = 0; round < ROUNDS; round++) {
      const target = TARGETS[round % TARGETS.length];
      const fns = target.abi.fragments.filter((f): f is FunctionFragment => f.type === "function");
      const fn = fns[Math.floor(rnd() * fns.length)];
      const valid = getBytes(
        target.abi.encodeFunctionData(
          fn,
          fn.inputs.map((t) => value(t, rnd)),
        ),
      );
      const { data, how } = mangle(valid, rnd);
      const what = `seed ${seed}, round ${round}: ${target.address} ${fn.name} with ${how} (${hexlify(data)})`;
      const receipt = await send({ to: target.address, data, value: fn.payable && rnd() < 0.3 ? 1n : 0n, gasLimit: 2_000_000 });
      expect(receipt, what).to.have.property("status");
      expect(faults, what).to.deep.equal([]);
      expect(BigInt(await h.request<string>("eth_getBalance", [OTHER, "latest"])), what).to.be.greaterThan(0n);
      expect((await send({ to: OTHER, value: 1n, gasLimit: 21_000 })).status, what).to.equal("0x1");
    }
  });
});
