/**
 * What EthereumJS alone costs for the operations `npm run bench:ops` times on the chain, so that each
 * can be printed beside its floor in one run (and `npm run bench:evm-floor` prints them alone):
 * - `runTxFloor`: a bare VM (no chain, no block production, no trie flush) runs pre-signed ERC-20
 *   transfers with `runTx`, with EthereumJS's own crypto or the native keccak and secp256k1 the chain
 *   uses (src/chain/base/crypto.ts);
 * - `runCallFloor`: `evm.runCall` of balanceOf on a warm state, inside one checkpoint (nothing is
 *   written and every read is a cache hit: less than an eth_call does, which also builds a
 *   transaction and runs it with `runTx`);
 * - `emptyBlockFloor`: EthereumJS's own block builder makes an empty block on its parent and puts it
 *   into its blockchain (its in-memory database), state root computed: producing and committing an
 *   empty block with EthereumJS alone;
 * - `transferBlockFloor`: the same builder makes a block of one pre-signed transfer (transaction,
 *   receipt, state root, block stored): what an automined send is with EthereumJS alone, where the
 *   bare `runTx` floor leaves the block out.
 * Each state has the chain's caches (account, storage, code). Each floor is prepared and warmed up
 * first and handed back as one step (one operation per call), so a caller can time it alone
 * (`measure`, `npm run bench:evm-floor`) or in turns with the chain's own operation
 * (`npm run bench:ops`): on a shared machine only figures taken in turns compare.
 */
import { artifacts } from "hardhat";
import { Common, Hardfork, Mainnet } from "@ethereumjs/common";
import { type Block, createBlock } from "@ethereumjs/block";
import { createBlockchain } from "@ethereumjs/blockchain";
import { createFeeMarket1559Tx } from "@ethereumjs/tx";
import { Address, createAccount, createContractAddress, hexToBytes, privateToAddress } from "@ethereumjs/util";
import { Caches, MerkleStateManager } from "@ethereumjs/statemanager";
import { buildBlock, createVM, runTx } from "@ethereumjs/vm";
import { Interface } from "ethers";
import { createChainCommon } from "../../src/chain/engine/common";
import { nativeCrypto } from "../../src/chain/base/crypto";

const KEY = hexToBytes("0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80");

export interface Cost {
  cpu: number;
  wall: number;
}

/** One operation of a floor, prepared and warmed up; each call runs the next one. */
export type Step = () => Promise<unknown>;

/** CPU (the process's, all threads) and wall time per operation of `n` steps. */
export async function measure(n: number, each: (i: number) => Promise<unknown>): Promise<Cost> {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  for (let i = 0; i < n; i++) await each(i);
  const wall = (performance.now() - t0) / n;
  const c = process.cpuUsage(c0);
  return { cpu: (c.user + c.system) / 1000 / n, wall };
}

function common(native: boolean): Common {
  return new Common({ chain: Mainnet, hardfork: Hardfork.Prague, ...(native ? { customCrypto: nativeCrypto() } : {}) });
}

/** Bare `runTx`s of an ERC-20 transfer, `n` of them pre-signed (after 500 to warm up). */
export async function runTxFloor(n: number, native: boolean): Promise<Step> {
  const art = await artifacts.readArtifact("BenchToken");
  const c = common(native);
  const vm = await createVM({ common: c, stateManager: new MerkleStateManager({ common: c, caches: new Caches() }) });
  await vm.stateManager.putAccount(new Address(privateToAddress(KEY)), createAccount({ balance: 10n ** 24n }));
  const iface = new Interface(art.abi);
  const block = createBlock({ header: { gasLimit: 30_000_000n, baseFeePerGas: 7n, number: 1n, timestamp: 1_800_000_000n } }, { common: c });
  const tx = (nonce: bigint, data: string, to?: Address) =>
    createFeeMarket1559Tx({ nonce, maxFeePerGas: 10n ** 9n, maxPriorityFeePerGas: 1n, gasLimit: 3_000_000n, data: hexToBytes(data as `0x${string}`), to }, { common: c }).sign(KEY);
  const deployed = await runTx(vm, { tx: tx(0n, art.bytecode + iface.encodeDeploy(["Bench", 10n ** 24n]).slice(2)), block, skipHardForkValidation: true });
  const token = deployed.createdAddress as Address;
  const data = iface.encodeFunctionData("transfer", ["0x70997970C51812dc3A010C7d01b50e0d17dc79C8", 1n]);
  const txs = Array.from({ length: n + 500 }, (_, i) => tx(BigInt(i + 1), data, token));
  for (const t of txs.slice(0, 500)) await runTx(vm, { tx: t, block, skipHardForkValidation: true });
  const timed = txs.slice(500);
  let i = 0;
  return () => {
    if (i >= timed.length) throw new Error(`runTxFloor: only ${n} transfers were signed`);
    return runTx(vm, { tx: timed[i++], block, skipHardForkValidation: true });
  };
}

/** Bare `evm.runCall`s of balanceOf, warm, inside one checkpoint (after 1,000 to warm up). */
export async function runCallFloor(): Promise<Step> {
  const art = await artifacts.readArtifact("BenchToken");
  const c = common(true);
  const vm = await createVM({ common: c, stateManager: new MerkleStateManager({ common: c, caches: new Caches() }) });
  const me = new Address(privateToAddress(KEY));
  await vm.stateManager.putAccount(me, createAccount({ balance: 10n ** 24n }));
  const iface = new Interface(art.abi);
  const block = createBlock({ header: { gasLimit: 30_000_000n, baseFeePerGas: 7n, number: 1n, timestamp: 1_800_000_000n } }, { common: c });
  const deploy = createFeeMarket1559Tx(
    { nonce: 0n, maxFeePerGas: 10n ** 9n, maxPriorityFeePerGas: 1n, gasLimit: 3_000_000n, data: hexToBytes((art.bytecode + iface.encodeDeploy(["Bench", 10n ** 24n]).slice(2)) as `0x${string}`) },
    { common: c },
  ).sign(KEY);
  const token = (await runTx(vm, { tx: deploy, block, skipHardForkValidation: true })).createdAddress as Address;
  const data = hexToBytes(iface.encodeFunctionData("balanceOf", [me.toString()]) as `0x${string}`);
  const call = async (): Promise<void> => {
    const r = await vm.evm.runCall({ to: token, caller: me, data, gasLimit: 100_000n, block });
    if (r.execResult.exceptionError !== undefined || r.execResult.returnValue.length !== 32) throw new Error("balanceOf failed");
  };
  await vm.evm.journal.checkpoint();
  for (let i = 0; i < 1000; i++) await call();
  return call;
}

/** Empty blocks built by EthereumJS's block builder on the last and put into its blockchain (after 100 to warm up). */
export async function emptyBlockFloor(): Promise<Step> {
  // the chain's own Common (every hardfork from block 0, native crypto): Mainnet's schedule has no base fee at genesis
  const c = createChainCommon(31337n, "prague", nativeCrypto());
  const genesisBlock = createBlock({ header: { number: 0n, gasLimit: 30_000_000n, baseFeePerGas: 1_000_000_000n, timestamp: 1_800_000_000n } }, { common: c });
  const blockchain = await createBlockchain({ common: c, genesisBlock, validateConsensus: false, validateBlocks: false });
  const vm = await createVM({ common: c, blockchain, stateManager: new MerkleStateManager({ common: c, caches: new Caches() }) });
  await vm.stateManager.putAccount(new Address(privateToAddress(KEY)), createAccount({ balance: 10n ** 24n }));
  let parent: Block = await blockchain.getCanonicalHeadBlock();
  const next = async (): Promise<void> => {
    const builder = await buildBlock(vm, {
      parentBlock: parent,
      headerData: { timestamp: parent.header.timestamp + 1n, gasLimit: 30_000_000n },
      blockOpts: { putBlockIntoBlockchain: true },
    });
    parent = (await builder.build()).block;
  };
  for (let i = 0; i < 100; i++) await next();
  return next;
}

/**
 * Blocks of one pre-signed ERC-20 transfer each, `n` of them, built by EthereumJS's block builder on
 * the last and put into its blockchain (after 100 to warm up).
 */
export async function transferBlockFloor(n: number): Promise<Step> {
  const art = await artifacts.readArtifact("BenchToken");
  const c = createChainCommon(31337n, "prague", nativeCrypto());
  const genesisBlock = createBlock({ header: { number: 0n, gasLimit: 30_000_000n, baseFeePerGas: 1_000_000_000n, timestamp: 1_800_000_000n } }, { common: c });
  const blockchain = await createBlockchain({ common: c, genesisBlock, validateConsensus: false, validateBlocks: false });
  const vm = await createVM({ common: c, blockchain, stateManager: new MerkleStateManager({ common: c, caches: new Caches() }) });
  await vm.stateManager.putAccount(new Address(privateToAddress(KEY)), createAccount({ balance: 10n ** 24n }));
  const iface = new Interface(art.abi);
  const tx = (nonce: bigint, data: string, to?: Address) =>
    createFeeMarket1559Tx({ nonce, chainId: 31337n, maxFeePerGas: 10n ** 10n, maxPriorityFeePerGas: 1n, gasLimit: 3_000_000n, data: hexToBytes(data as `0x${string}`), to }, { common: c }).sign(KEY);
  let parent: Block = await blockchain.getCanonicalHeadBlock();
  const mine = async (t: ReturnType<typeof tx>): Promise<Block> => {
    const builder = await buildBlock(vm, { parentBlock: parent, headerData: { timestamp: parent.header.timestamp + 1n, gasLimit: 30_000_000n }, blockOpts: { putBlockIntoBlockchain: true } });
    const { receipt } = await builder.addTransaction(t);
    if ("status" in receipt && receipt.status !== 1) throw new Error("transferBlockFloor: the transaction failed");
    parent = (await builder.build()).block;
    return parent;
  };
  await mine(tx(0n, art.bytecode + iface.encodeDeploy(["Bench", 10n ** 24n]).slice(2)));
  const token = createContractAddress(new Address(privateToAddress(KEY)), 0n);
  const data = iface.encodeFunctionData("transfer", ["0x70997970C51812dc3A010C7d01b50e0d17dc79C8", 1n]);
  const txs = Array.from({ length: n + 100 }, (_, i) => tx(BigInt(i + 1), data, token));
  for (const t of txs.slice(0, 100)) await mine(t);
  let i = 100;
  return () => {
    if (i >= txs.length) throw new Error(`transferBlockFloor: only ${n} transfers were signed`);
    return mine(txs[i++]);
  };
}
