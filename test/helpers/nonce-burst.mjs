// A script author's burst, run as its own process: COUNT consecutive nonces of one account, pre-signed,
// sent by WORKERS concurrent workers through ethers' JsonRpcProvider (one eth_sendRawTransaction per
// request, no batching) at full speed. Prints one JSON line: what was accepted and refused.
// usage: node nonce-burst.mjs URL PRIVATE_KEY [COUNT=300] [WORKERS=16]
import { JsonRpcProvider, Wallet, Transaction } from "ethers";

const [url, key, countArg = "300", workersArg = "16"] = process.argv.slice(2);
const count = Number(countArg);
const workers = Number(workersArg);
const provider = new JsonRpcProvider(url, undefined, { batchMaxCount: 1, staticNetwork: true, cacheTimeout: -1 });
const wallet = new Wallet(key);
const chainId = (await provider.getNetwork()).chainId;
const nonce0 = await provider.getTransactionCount(wallet.address, "pending");
const block = await provider.getBlock("latest");
const maxFeePerGas = (block?.baseFeePerGas ?? 0n) * 4n + 10n ** 9n;
const raws = [];
for (let i = 0; i < count; i++) {
  const tx = Transaction.from({ type: 2, chainId, nonce: nonce0 + i, to: wallet.address, value: 1n, gasLimit: 21000n, maxFeePerGas, maxPriorityFeePerGas: 10n ** 9n });
  raws.push(await wallet.signTransaction(tx));
}
let next = 0;
const accepted = [];
const refused = [];
const t0 = performance.now();
await Promise.all(
  Array.from({ length: workers }, async () => {
    while (next < raws.length) {
      const i = next++;
      try {
        accepted.push({ nonce: nonce0 + i, hash: await provider.send("eth_sendRawTransaction", [raws[i]]) });
      } catch (err) {
        refused.push({ nonce: nonce0 + i, error: err?.error?.message ?? err?.info?.error?.message ?? err?.shortMessage ?? String(err) });
      }
    }
  }),
);
const ms = Math.round(performance.now() - t0);
provider.destroy();
console.log(JSON.stringify({ sender: wallet.address, nonce0, count, workers, ms, accepted: accepted.length, refused, hashes: accepted.sort((a, b) => a.nonce - b.nonce).map((a) => a.hash) }));
