/**
 * hardhat_mine on a local_node.sh genesis (x/mint every block, the SDK's minute, hour and day
 * timers): the wall time of 100,000 blocks with quiet runs reserved and their module work played
 * (src/chain/store/steady-runs.ts), beside the same node making every block (a block filter
 * installed, as a newHeads reader would) for 1,000 blocks, scaled. A measuring tool, not a test:
 * test/chain/played-runs.test.ts holds the two chains equal.
 *
 *   npm run bench:mine
 */
import { closeLocalNode, localNode } from "../test/helpers/local-node";

const q = (n: number): string => `0x${n.toString(16)}`;

async function mine(blocks: number, everyBlock: boolean): Promise<number> {
  const c = await localNode();
  try {
    if (everyBlock) await c.h.request("eth_newBlockFilter", []);
    await c.h.request("hardhat_mine", [q(10)]);
    const t = process.hrtime.bigint();
    await c.h.request("hardhat_mine", [q(blocks)]);
    return Number(process.hrtime.bigint() - t) / 1e6;
  } finally {
    await closeLocalNode(c);
  }
}

async function main(): Promise<void> {
  const played = await mine(100_000, false);
  const made = await mine(1_000, true);
  console.log(`hardhat_mine 100,000 blocks, quiet runs played: ${played.toFixed(0)} ms (${((played * 1000) / 100_000).toFixed(1)} µs a block)`);
  console.log(`every block made (1,000 blocks): ${made.toFixed(0)} ms (${(made / 1000).toFixed(2)} ms a block; 100,000 would take ${((made * 100) / 1000).toFixed(0)} s)`);
  console.log(`ratio, made / played per block: ${(made / 1000 / (played / 100_000)).toFixed(0)}×`);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
