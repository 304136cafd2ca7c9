/**
 * `npm run bench:evm-floor`: what EthereumJS alone costs for the operations `npm run bench:ops` times
 * (bench/tests/floors.ts), alone: 2,500 pre-signed ERC-20 transfers with a bare `runTx`, once with
 * EthereumJS's own crypto and once with the native keccak and secp256k1 the chain uses; 5,000 bare
 * `evm.runCall`s of balanceOf on a warm state; 1,000 empty blocks made and stored by EthereumJS's block
 * builder. Runs with the bench suite's config (its artifacts). `npm run bench:ops` prints the same
 * floors beside the chain's figures from one run.
 */
import { emptyBlockFloor, measure, runCallFloor, runTxFloor } from "./floors";

const row = (label: string, c: { cpu: number; wall: number }) => `| ${label} | ${c.cpu.toFixed(3)} | ${c.wall.toFixed(3)} |`;

async function main(): Promise<void> {
  console.log("bare EthereumJS runTx, ERC-20 transfer, 2500 each (sender recovered inside)\n");
  console.log("| crypto | cpu ms/tx | wall ms/tx |\n|---|---:|---:|");
  console.log(row("EthereumJS's own (pure JS)", await measure(2500, await runTxFloor(2500, false))));
  console.log(row("native keccak + secp256k1 (the chain's)", await measure(2500, await runTxFloor(2500, true))));
  console.log("\nbare EthereumJS evm.runCall, ERC-20 balanceOf, 5000, warm (one checkpoint, no writes)\n");
  console.log("| crypto | cpu ms/call | wall ms/call |\n|---|---:|---:|");
  console.log(row("native keccak + secp256k1 (the chain's)", await measure(5000, await runCallFloor())));
  console.log("\nEthereumJS's block builder, 1000 empty blocks made and put into its blockchain\n");
  console.log("| crypto | cpu ms/block | wall ms/block |\n|---|---:|---:|");
  console.log(row("native keccak + secp256k1 (the chain's)", await measure(1000, await emptyBlockFloor())));
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
