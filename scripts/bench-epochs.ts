/**
 * What the epochs module costs, in-process (bounded: BENCH_BLOCKS blocks per run, BENCH_CALLS calls):
 *
 * 1. per block, the spec rule's busy case: empty blocks 1 s apart with no timers, with 100 timers
 *    (durations 1…100 s, so some tick in most blocks), and with 10 contract hooks on top;
 * 2. per block where nothing ticks: 100 timers of 1…100 days and 10 hooks, all started, against
 *    the same empty blocks on a chain without epochs (the goal: under 5% more). Both chains live in
 *    this process and mine in alternating chunks;
 * 3. per hook call: 10 timers of 1 s (every block ends or starts each: 100 hook calls per block)
 *    with 10 hooks against the same timers without hooks, divided by the calls; next to it the same
 *    call as a bare `evm.runCall` and as the chain's isolated `systemCall` (checkpoint, commit,
 *    journal clean-up), so the difference shows what the hook machinery around the call costs.
 * Times are this process's CPU time (process.cpuUsage), which other work on a shared machine
 * disturbs less than the wall time.
 * Run: npm run bench:epochs
 */
import solc from "solc";
import { Wallet, getBytes } from "ethers";
import { Address } from "@ethereumjs/util";
import { systemCall } from "../src/chain/block/block-producer";
import { defaultChainConfig } from "../src/chain/config";
import { EPOCHS_PRECOMPILE_BYTES, HOOKS_ABI, newEpochInfo } from "../src/epochs";
import { createRuntime, type Runtime, type RuntimeOptions } from "../src/app/runtime";

const BLOCKS = Number(process.env.BENCH_BLOCKS ?? 300);
const CALLS = Number(process.env.BENCH_CALLS ?? 2000);
const HOOK = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;
contract Hook {
  uint256 public starts; uint256 public ends;
  function beforeEpochStart(string calldata, int64) external { starts++; }
  function afterEpochEnd(string calldata, int64) external { ends++; }
}`;
const DAY = 86400n;

let bytecode: string | undefined;
function hookBytecode(): string {
  if (bytecode !== undefined) return bytecode;
  const out = JSON.parse(solc.compile(JSON.stringify({ language: "Solidity", sources: { "H.sol": { content: HOOK } }, settings: { outputSelection: { "*": { "*": ["evm.bytecode.object"] } } } }))) as {
    contracts: Record<string, Record<string, { evm: { bytecode: { object: string } } }>>;
  };
  bytecode = `0x${out.contracts["H.sol"].Hook.evm.bytecode.object}`;
  return bytecode;
}

const timers = (n: number, unit: bigint): RuntimeOptions["epochs"] => ({
  genesis: { epochs: Array.from({ length: n }, (_, i) => newEpochInfo(`t${String(i + 1).padStart(3, "0")}`, BigInt(i + 1) * unit)) },
});
const NO_TIMERS: RuntimeOptions["epochs"] = { genesis: { epochs: [] } };

interface Chain {
  rt: Runtime;
  call(method: string, params?: unknown[]): Promise<unknown>;
  hooks: string[];
}

async function chain(epochs: RuntimeOptions["epochs"], hooks: number): Promise<Chain> {
  const rt = await createRuntime({ chain: { ...defaultChainConfig(), initialDate: new Date("2024-01-01T00:00:00Z") }, clientVersion: "bench", epochs });
  // the module's cost per made block is measured: hardhat_mine makes every block here instead of reserving the quiet ones (docs/reserved-blocks.md)
  rt.node.wantsEveryBlock(() => true);
  const ctx = { transport: "in-process" as const, authenticated: true };
  const call = (method: string, params: unknown[] = []) => rt.dispatcher.call(method, params, ctx);
  const from = new Wallet("0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80").address;
  const addresses: string[] = [];
  for (let i = 0; i < hooks; i++) {
    const hash = (await call("eth_sendTransaction", [{ from, data: hookBytecode(), gas: "0x100000" }])) as string;
    const r = (await call("eth_getTransactionReceipt", [hash])) as { contractAddress: string };
    await call("epochs_registerHooks", [r.contractAddress]);
    addresses.push(r.contractAddress);
  }
  return { rt, call, hooks: addresses };
}

/** CPU milliseconds `fn` takes. */
async function cpuMs(fn: () => Promise<unknown>): Promise<number> {
  const c0 = process.cpuUsage();
  await fn();
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / 1000;
}

/** Mines `blocks` empty blocks 1 s apart; ms per block, hook calls and events seen in them. */
async function mine(c: Chain, blocks: number): Promise<{ msPerBlock: number; hookCalls: number; events: number }> {
  const start = c.rt.node.headNumber;
  const ms = await cpuMs(() => c.call("hardhat_mine", [`0x${blocks.toString(16)}`, "0x1"]));
  let hookCalls = 0;
  let events = 0;
  for (let n = start + 1n; n <= c.rt.node.headNumber; n++) {
    const ev = await c.rt.node.store.getEvents(n);
    for (const e of [...ev.begin, ...ev.end]) {
      events++;
      if (e.type.startsWith("epoch_hook")) hookCalls++;
    }
  }
  return { msPerBlock: ms / blocks, hookCalls, events };
}

async function run(epochs: RuntimeOptions["epochs"], hooks: number, warmBlocks = 0): Promise<{ msPerBlock: number; hookCalls: number; events: number }> {
  const c = await chain(epochs, hooks);
  try {
    if (warmBlocks > 0) await mine(c, warmBlocks);
    return await mine(c, BLOCKS);
  } finally {
    await c.rt.close();
  }
}

/** ms per block of two chains mining the same empty blocks in alternating chunks (after a warm-up round). */
async function alternate(a: Chain, b: Chain, rounds = 6): Promise<{ a: number; b: number; events: number; bHookCallsPerBlock: number }> {
  await mine(a, 2);
  await mine(b, 2);
  let ta = 0;
  let tb = 0;
  let events = 0;
  let bHooks = 0;
  const chunk = Math.max(1, Math.floor(BLOCKS / rounds));
  // one unmeasured round each first: the chain that mines first would otherwise pay for the JIT's warm-up
  await mine(a, chunk);
  await mine(b, chunk);
  for (let i = 0; i < rounds; i++) {
    const ra = await mine(a, chunk);
    const rb = await mine(b, chunk);
    ta += ra.msPerBlock;
    tb += rb.msPerBlock;
    events += ra.events + rb.events;
    bHooks += rb.hookCalls;
  }
  return { a: ta / rounds, b: tb / rounds, events, bHookCallsPerBlock: bHooks / (chunk * rounds) };
}

/** ms per call of the same hook call made `CALLS` times as a bare EVM call and as the chain's isolated system call. */
async function callCosts(): Promise<{ bare: number; isolated: number }> {
  const c = await chain(NO_TIMERS, 1);
  try {
    const { vm } = c.rt.node;
    const block = await c.rt.node.getBlock(c.rt.node.headNumber);
    if (block === undefined) throw new Error("no head block");
    const data = getBytes(HOOKS_ABI.encodeFunctionData("beforeEpochStart", ["t001", 1n]));
    const to = getBytes(c.hooks[0]);
    const args = { caller: EPOCHS_PRECOMPILE_BYTES, to, data, gasLimit: 3_000_000n };
    // nothing else runs in this process: the live VM is this measurement's alone
    return await (async () => {
      // inside one outer checkpoint, as a block's calls run (else every top-level call writes the trie), undone at the end
      await vm.evm.journal.checkpoint();
      const time = async (fn: () => Promise<unknown>): Promise<number> => {
        for (let i = 0; i < 200; i++) await fn(); // warm-up
        return (
          (await cpuMs(async () => {
            for (let i = 0; i < CALLS; i++) await fn();
          })) / CALLS
        );
      };
      const bare = await time(async () => {
        const r = await vm.evm.runCall({
          caller: new Address(args.caller),
          origin: new Address(args.caller),
          to: new Address(to),
          data,
          gasLimit: args.gasLimit,
          gasPrice: 0n,
          value: 0n,
          block,
          skipBalance: true,
          skipNonceIncrement: true,
        });
        if (r.execResult.exceptionError !== undefined) throw new Error(r.execResult.exceptionError.error);
        vm.evm.journal.cleanJournal();
      });
      const isolated = await time(async () => {
        const r = await systemCall(vm, block, args);
        if (!r.success) throw new Error(r.error);
      });
      await vm.evm.journal.revert();
      return { bare, isolated };
    })();
  } finally {
    await c.rt.close();
  }
}

async function main(): Promise<void> {
  await run(NO_TIMERS, 0); // warm-up

  // 1. the busy case
  const rows = [
    { name: "no timers, no hooks", ...(await run(NO_TIMERS, 0)) },
    { name: "100 timers (1…100 s), no hooks", ...(await run(timers(100, 1n), 0)) },
    { name: "100 timers (1…100 s), 10 contract hooks", ...(await run(timers(100, 1n), 10)) },
  ];
  console.log(`\n1. epochs cost per block (${BLOCKS} empty blocks, 1 s apart, in-process, spec rule)\n`);
  console.log("| chain | ms/block | extra ms/block | hook calls | events |\n|---|---:|---:|---:|---:|");
  for (const r of rows) console.log(`| ${r.name} | ${r.msPerBlock.toFixed(3)} | ${(r.msPerBlock - rows[0].msPerBlock).toFixed(3)} | ${r.hookCalls} | ${r.events} |`);

  // 2. blocks where nothing ticks (the first 2 blocks start every timer: their first epoch begins)
  const plain = await chain(NO_TIMERS, 0);
  const quiet = await chain(timers(100, DAY), 10);
  const q = await alternate(plain, quiet);
  await plain.rt.close();
  await quiet.rt.close();
  console.log(`\n2. blocks where nothing ticks (${BLOCKS} empty blocks each, 1 s apart, mined in alternating chunks)\n`);
  console.log("| chain | ms/block |\n|---|---:|");
  console.log(`| no epochs (no timers, no hooks) | ${q.a.toFixed(3)} |`);
  console.log(`| 100 timers (1…100 days) + 10 hooks, none ticking | ${q.b.toFixed(3)} |`);
  console.log(`\noverhead: ${(((q.b - q.a) / q.a) * 100).toFixed(1)}% (goal < 5%); events in the measured blocks: ${q.events}`);

  // 3. one hook call
  const base = await chain(timers(10, 1n), 0);
  const hooked = await chain(timers(10, 1n), 10);
  const h = await alternate(base, hooked);
  await base.rt.close();
  await hooked.rt.close();
  const perHook = (h.b - h.a) / h.bHookCallsPerBlock;
  const { bare, isolated } = await callCosts();
  console.log(`\n3. one hook call (10 timers of 1 s, 10 hooks: ${h.bHookCallsPerBlock.toFixed(0)} hook calls per block; calls: ${CALLS} each)\n`);
  console.log("| what | ms per call |\n|---|---:|");
  console.log(`| a hook call inside a block (block time with hooks − without, per call) | ${perHook.toFixed(3)} |`);
  console.log(`| the same call as the chain's systemCall (checkpoint, call, commit, journal clean-up) | ${isolated.toFixed(3)} |`);
  console.log(`| the same call as a bare evm.runCall | ${bare.toFixed(3)} |`);
  console.log(`\nisolation (systemCall − bare): ${(isolated - bare).toFixed(3)} ms; the rest of a hook call (hook list, ABI encoding, events): ${(perHook - isolated).toFixed(3)} ms`);
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
