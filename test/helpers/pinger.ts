/**
 * Another client of a node under test: eth_blockNumber every 20 ms from a worker thread, with an
 * event loop of its own (a client on the server's own thread could not even send while the server's
 * loop is held), until told to stop; then the longest wait.
 */
import { expect } from "chai";
import { Worker } from "node:worker_threads";

const PINGER = `
const { parentPort, workerData } = require("node:worker_threads");
let stop = false;
let longest = 0;
let pings = 0;
parentPort.on("message", () => { stop = true; });
(async () => {
  let error;
  while (!stop) {
    const t = Date.now();
    try {
      const res = await fetch(workerData.url, { method: "POST", headers: { "content-type": "application/json", origin: "http://localhost:3000" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_blockNumber", params: [] }) });
      const answer = await res.json();
      if (typeof answer.result !== "string") error = JSON.stringify(answer);
    } catch (e) {
      error = String(e);
    }
    longest = Math.max(longest, Date.now() - t);
    pings++;
    await new Promise((r) => setTimeout(r, 20));
  }
  parentPort.postMessage({ longest, pings, error });
})();
`;

/** Runs `work` while the other client pings the node at `url`; answers what `work` answered, the longest wait and the pings. */
export async function whilePinging<T>(url: string, work: () => Promise<T>): Promise<{ result: T; longestMs: number; pings: number }> {
  const pinger = new Worker(PINGER, { eval: true, workerData: { url } });
  const done = new Promise<{ longest: number; pings: number; error?: string }>((resolve, reject) => {
    pinger.once("message", resolve);
    pinger.once("error", reject);
  });
  await new Promise((resolve) => pinger.once("online", resolve));
  try {
    const result = await work();
    pinger.postMessage("stop");
    const { longest, pings, error } = await done;
    expect(error, "the pinger's answers").to.equal(undefined);
    return { result, longestMs: longest, pings };
  } finally {
    await pinger.terminate();
  }
}
