/**
 * `npm run bench:evm-floor`: what EthereumJS alone costs for the transfer `npm run bench:ops` automines
 * and for its `eth_call` of balanceOf, to tell the chain's own cost from the interpreter's. A bare
 * EthereumJS VM (no chain, no block, no trie flush) runs 2,500 pre-signed ERC-20 transfers with
 * `runTx`, once with EthereumJS's own crypto and once with the native keccak and secp256k1 the chain
 * uses (src/chain/engine/crypto.ts); then 5,000 `evm.runCall`s of balanceOf on a warm state (inside
 * one checkpoint, so nothing is written and every read is a cache hit: less than an eth_call does,
 * which also builds a transaction and runs it with `runTx`). Runs with the bench suite's config (its
 * artifacts). The state has the chain's caches (account, storage, code).
 */
import { artifacts } from "hardhat";
import { Common, Hardfork, Mainnet } from "@ethereumjs/common";
import { createBlock } from "@ethereumjs/block";
import { createFeeMarket1559Tx } from "@ethereumjs/tx";
import { Address, createAccount, hexToBytes, privateToAddress } from "@ethereumjs/util";
import { Caches, MerkleStateManager } from "@ethereumjs/statemanager";
import { createVM, runTx } from "@ethereumjs/vm";
import { Interface } from "ethers";
import { nativeCrypto } from "../../src/chain/engine/crypto";

const KEY = hexToBytes("0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80");
const N = 2500;

async function transfers(native: boolean): Promise<string> {
  const art = await artifacts.readArtifact("BenchToken");
  const common = new Common({ chain: Mainnet, hardfork: Hardfork.Prague, ...(native ? { customCrypto: nativeCrypto() } : {}) });
  // the account, storage and code caches the chain's state manager has too (src/chain/store/chain-state.ts)
  const vm = await createVM({ common, stateManager: new MerkleStateManager({ common, caches: new Caches() }) });
  await vm.stateManager.putAccount(new Address(privateToAddress(KEY)), createAccount({ balance: 10n ** 24n }));
  const iface = new Interface(art.abi);
  const block = createBlock({ header: { gasLimit: 30_000_000n, baseFeePerGas: 7n, number: 1n, timestamp: 1_800_000_000n } }, { common });
  const tx = (nonce: bigint, data: string, to?: Address) =>
    createFeeMarket1559Tx({ nonce, maxFeePerGas: 10n ** 9n, maxPriorityFeePerGas: 1n, gasLimit: 3_000_000n, data: hexToBytes(data as `0x${string}`), to }, { common }).sign(KEY);
  const deployed = await runTx(vm, { tx: tx(0n, art.bytecode + iface.encodeDeploy(["Bench", 10n ** 24n]).slice(2)), block, skipHardForkValidation: true });
  const token = deployed.createdAddress as Address;
  const data = iface.encodeFunctionData("transfer", ["0x70997970C51812dc3A010C7d01b50e0d17dc79C8", 1n]);
  const txs = Array.from({ length: N + 500 }, (_, i) => tx(BigInt(i + 1), data, token));
  for (const t of txs.slice(0, 500)) await runTx(vm, { tx: t, block, skipHardForkValidation: true }); // warm-up
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  for (const t of txs.slice(500)) await runTx(vm, { tx: t, block, skipHardForkValidation: true });
  const wall = (performance.now() - t0) / N;
  const c = process.cpuUsage(c0);
  return `| ${native ? "native keccak + secp256k1 (the chain's)" : "EthereumJS's own (pure JS)"} | ${((c.user + c.system) / 1000 / N).toFixed(3)} | ${wall.toFixed(3)} |`;
}

const CALLS = 5000;

/** Bare `evm.runCall` of balanceOf (native crypto), warm, inside one checkpoint. */
async function calls(): Promise<string> {
  const art = await artifacts.readArtifact("BenchToken");
  const common = new Common({ chain: Mainnet, hardfork: Hardfork.Prague, customCrypto: nativeCrypto() });
  const vm = await createVM({ common, stateManager: new MerkleStateManager({ common, caches: new Caches() }) });
  const me = new Address(privateToAddress(KEY));
  await vm.stateManager.putAccount(me, createAccount({ balance: 10n ** 24n }));
  const iface = new Interface(art.abi);
  const block = createBlock({ header: { gasLimit: 30_000_000n, baseFeePerGas: 7n, number: 1n, timestamp: 1_800_000_000n } }, { common });
  const deploy = createFeeMarket1559Tx(
    { nonce: 0n, maxFeePerGas: 10n ** 9n, maxPriorityFeePerGas: 1n, gasLimit: 3_000_000n, data: hexToBytes((art.bytecode + iface.encodeDeploy(["Bench", 10n ** 24n]).slice(2)) as `0x${string}`) },
    { common },
  ).sign(KEY);
  const token = (await runTx(vm, { tx: deploy, block, skipHardForkValidation: true })).createdAddress as Address;
  const data = hexToBytes(iface.encodeFunctionData("balanceOf", [me.toString()]) as `0x${string}`);
  const call = async (): Promise<void> => {
    const r = await vm.evm.runCall({ to: token, caller: me, data, gasLimit: 100_000n, block });
    if (r.execResult.exceptionError !== undefined || r.execResult.returnValue.length !== 32) throw new Error("balanceOf failed");
  };
  await vm.evm.journal.checkpoint();
  for (let i = 0; i < 1000; i++) await call(); // warm-up
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  for (let i = 0; i < CALLS; i++) await call();
  const wall = (performance.now() - t0) / CALLS;
  const c = process.cpuUsage(c0);
  return `| native keccak + secp256k1 (the chain's) | ${((c.user + c.system) / 1000 / CALLS).toFixed(3)} | ${wall.toFixed(3)} |`;
}

async function main(): Promise<void> {
  console.log(`bare EthereumJS runTx, ERC-20 transfer, ${N} each (sender recovered inside)\n`);
  console.log("| crypto | cpu ms/tx | wall ms/tx |\n|---|---:|---:|");
  console.log(await transfers(false));
  console.log(await transfers(true));
  console.log(`\nbare EthereumJS evm.runCall, ERC-20 balanceOf, ${CALLS}, warm (one checkpoint, no writes)\n`);
  console.log("| crypto | cpu ms/call | wall ms/call |\n|---|---:|---:|");
  console.log(await calls());
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
