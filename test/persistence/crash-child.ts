/**
 * Child process of the crash test: opens a LevelDB home and sends value transfers forever (until it
 * is killed), printing "OK <txHash> <block>" after each transfer's block is committed.
 */
import { defaultChainConfig } from "../../src/chain/config";
import { createRuntime } from "../../src/app/runtime";
import { LevelKV } from "../../src/storage/level-kv";

async function main(): Promise<void> {
  const dir = process.argv[2];
  const rt = await createRuntime({ chain: { ...defaultChainConfig(), initialDate: new Date("2024-03-01T12:00:00Z") }, clientVersion: "crash-child", kv: await LevelKV.open(dir) });
  const ctx = { transport: "in-process" as const, authenticated: true };
  const accounts = (await rt.dispatcher.call("eth_accounts", [], ctx)) as string[];
  process.stdout.write("READY\n");
  for (let i = 0; i < 1_000_000; i++) {
    const hash = (await rt.dispatcher.call("eth_sendTransaction", [{ from: accounts[i % 5], to: accounts[5 + (i % 5)], value: "0x1" }], ctx)) as string;
    const receipt = (await rt.dispatcher.call("eth_getTransactionReceipt", [hash], ctx)) as { blockNumber: string };
    process.stdout.write(`OK ${hash} ${receipt.blockNumber}\n`);
  }
}

main().catch((err) => {
  process.stderr.write(`${(err as Error).message}\n`);
  process.exit(1);
});
