/**
 * What an empty block costs on a local_node.sh genesis (x/mint every block) before and after the
 * worst a funded caller can pay for in transactions: 30 validators with the longest descriptions
 * x/staking takes, 300 proposals with no deposit, and 30 votes, deposits and delegations on one
 * proposal. Prints the wall time of an empty block (median of 20) and the module records it read
 * (src/cosmos/common/module-env.ts, blockWork), before and after. A measuring tool, not a test:
 * test/cosmos/block-work.test.ts holds the record counts equal.
 *
 *   npm run bench:block-work
 */
import { Interface, getBytes, hexlify, randomBytes } from "ethers";
import { bech32 } from "bech32";
import { blockWork } from "../src/cosmos/common/module-env";
import { GOV_ABI } from "../src/cosmos/gov/precompile";
import { STAKING_ABI } from "../src/cosmos/staking/precompile";
import type { Harness } from "../test/helpers/harness";
import { closeLocalNode, localNode } from "../test/helpers/local-node";

const E18 = 10n ** 18n;
const STAKING = "0x0000000000000000000000000000000000000800";
const GOV = "0x0000000000000000000000000000000000000805";
const VALIDATOR = "0x7cB61D4117AE31a12E393a1Cfa3BaC666481D02E";
const q = (n: bigint): string => `0x${n.toString(16)}`;
const valoper = (hex: string): string => bech32.encode("cosmosvaloper", bech32.toWords(getBytes(hex)));
const LONGEST = ["m".repeat(70), "i".repeat(3000), "w".repeat(140), "s".repeat(140), "d".repeat(280)];

async function send(h: Harness, from: string, to: string, abi: Interface, fn: string, args: unknown[], value = 0n): Promise<void> {
  const hash = await h.request<string>("eth_sendTransaction", [{ from, to, data: abi.encodeFunctionData(fn, args), gas: q(5_000_000n), value: q(value) }]);
  const r = await h.request<{ status: string }>("eth_getTransactionReceipt", [hash]);
  if (r.status !== "0x1") throw new Error(`${fn} failed`);
}

async function funded(h: Harness): Promise<string> {
  const a = hexlify(randomBytes(20));
  await h.request("hardhat_setBalance", [a, q(10_000n * E18)]);
  await h.request("hardhat_impersonateAccount", [a]);
  return a;
}

async function emptyBlocks(h: Harness, n = 20): Promise<{ ms: number; reads: number; bytes: number }> {
  const times: number[] = [];
  const before = { ...blockWork };
  for (let i = 0; i < n; i++) {
    const t = process.hrtime.bigint();
    await h.request("evm_mine", []);
    times.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  times.sort((a, b) => a - b);
  return { ms: times[Math.floor(n / 2)], reads: (blockWork.reads - before.reads) / n, bytes: (blockWork.bytes - before.bytes) / n };
}

async function main(): Promise<void> {
  const c = await localNode((g) => {
    const gov = (g as { app_state: { gov: { params: Record<string, unknown> } } }).app_state.gov.params;
    Object.assign(gov, { max_deposit_period: "86400s", voting_period: "86400s", expedited_voting_period: "3600s" });
  });
  const { h } = c;
  try {
    await emptyBlocks(h, 5);
    const fresh = await emptyBlocks(h);
    const ops: string[] = [];
    for (let i = 0; i < 30; i++) {
      const op = await funded(h);
      ops.push(op);
      await send(h, op, STAKING, STAKING_ABI, "createValidator", [LONGEST, [E18 / 10n, E18 / 5n, E18 / 100n], 1n, op, Buffer.from(randomBytes(32)).toString("base64"), 2n * E18], 2n * E18);
    }
    const proposal = Buffer.from(JSON.stringify({ messages: [], metadata: "", title: "spam", summary: "spam" }));
    for (let i = 0; i < 300; i++) await send(h, ops[i % ops.length], GOV, GOV_ABI, "submitProposal", [ops[i % ops.length], proposal, []]);
    await send(h, ops[0], GOV, GOV_ABI, "submitProposal", [ops[0], proposal, [["atest", 10n * E18]]]);
    for (const op of ops) {
      await send(h, op, GOV, GOV_ABI, "vote", [op, 301n, 1, ""]);
      await send(h, op, GOV, GOV_ABI, "deposit", [op, 301n, [["atest", E18]]]);
      await send(h, op, STAKING, STAKING_ABI, "delegate", [op, valoper(VALIDATOR), E18]);
    }
    const after = await emptyBlocks(h);
    const row = (name: string, r: { ms: number; reads: number; bytes: number }) =>
      console.log(`${name.padEnd(34)} ${r.ms.toFixed(2).padStart(8)} ms ${r.reads.toFixed(0).padStart(6)} records ${r.bytes.toFixed(0).padStart(8)} bytes`);
    console.log("an empty block (median of 20), local_node.sh genesis, x/mint every block");
    row("fresh chain", fresh);
    row("after 30 validators, 301 proposals,", after);
    console.log("  30 votes, deposits, delegations");
  } finally {
    await closeLocalNode(c);
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
