// Runs the plugin's Hardhat 3 hooks of this repository's dist/ the way Hardhat 3 calls them, without
// a Hardhat 3 install: the config hooks resolve the user's config, the network hooks' newConnection
// makes a connection to the in-process network (`default`), and every request goes through their
// onRequest, as `network.create()` and `connection.provider.request` do. Then a scenario runs and
// prints one JSON line per step; closeConnection ends it. Input: JSON in HH3_NETWORK
// ({ dist, userConfig, paths }). `hardhat/plugins` is stood in for (plugins-stand-in.mjs).
import "./plugins-stand-in.mjs";
import { EventEmitter } from "node:events";
import { createRequire } from "node:module";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const { dist, userConfig, paths } = JSON.parse(process.env.HH3_NETWORK);
const load = (file) => import(pathToFileURL(path.join(dist, "src/hardhat3", file)).href);
const out = (step, value) => console.log(JSON.stringify({ step, value }, (_k, v) => (typeof v === "bigint" ? v.toString() : v)));

const configHooks = await (await load("hooks/config.mjs")).default();
const extended = await configHooks.extendUserConfig(userConfig, async (c) => c);
const config = await configHooks.resolveUserConfig(extended, undefined, async (u) => ({ paths, networks: u.networks }));
const context = { config, versions: { hardhat: "3.0.0" }, globalOptions: {} };
const networkHooks = await (await load("hooks/network.mjs")).default();

// a connection to another network (EDR here) passes through the hooks without loading the chain's code
const loadedChainFiles = () => Object.keys(createRequire(import.meta.url).cache).filter((f) => f.startsWith(path.join(dist, "src", "chain") + path.sep));
const edr = { id: 0, networkName: "edr", networkConfig: { type: "edr-simulated", chainId: 31337 }, provider: new EventEmitter(), close: async () => undefined };
await networkHooks.newConnection(context, async () => edr);
await networkHooks.closeConnection(context, edr, async () => undefined);
out("chainFilesForEdr", loadedChainFiles().length);

// Hardhat 3's provider: requests go through the hooks' onRequest; `next` would be HTTP (never reached here)
const provider = new EventEmitter();
let id = 0;
const conn = {
  id: 1,
  networkName: "default",
  networkConfig: config.networks.default,
  provider,
  close: async () => undefined,
};
provider.request = async ({ method, params }) => {
  const res = await networkHooks.onRequest(context, conn, { jsonrpc: "2.0", id: ++id, method, params }, async () => {
    throw new Error("the in-process network went to HTTP");
  });
  if ("error" in res) throw Object.assign(new Error(res.error.message), { code: res.error.code, data: res.error.data });
  return res.result;
};
await networkHooks.newConnection(context, async () => conn);
out("chainFilesForOurs", loadedChainFiles().length);

const messages = [];
provider.on("message", (m) => messages.push(m));
out("chainId", await provider.request({ method: "eth_chainId" }));
out("clientVersion", await provider.request({ method: "web3_clientVersion" }));
out("epochs", (await conn.epochs.all()).map((e) => e.identifier));
const subscription = await provider.request({ method: "eth_subscribe", params: ["newHeads"] });
await provider.request({ method: "evm_mine" });
out("notification", { subscription, got: messages.map((m) => [m.type, m.data.subscription === subscription, typeof m.data.result.number]) });
try {
  await provider.request({ method: "eth_call", params: [{ to: "0x0000000000000000000000000000000000000900", data: "0xdeadbeef" }, "latest"] });
  out("revert", null);
} catch (err) {
  out("revert", { message: err.message, code: err.code });
}
// the epochs:advance task's action, given a runtime whose network connection is this one
const printed = [];
const print = console.log;
console.log = (...args) => printed.push(args.join(" "));
try {
  const before = await conn.epochs.current("day");
  const advance = (await load("tasks/epochs-advance.mjs")).default;
  const hre = { network: { getOrCreate: async () => conn }, config };
  await advance({ identifier: "day", count: 2 }, hre);
  const after = await conn.epochs.current("day");
  // --to-next day: one more; and both forms at once refused in the plugin's words
  await advance({ toNext: "day", count: 1 }, hre);
  const next = await conn.epochs.current("day");
  const both = await advance({ identifier: "day", toNext: "day", count: 1 }, hre).then(() => null, (err) => err.message);
  // while this project's node runs (its record in the cache, its process alive: this one stands in), the task says it moves its own chain
  const warned = [];
  const warn = console.warn;
  console.warn = (...args) => warned.push(args.join(" "));
  mkdirSync(paths.cache, { recursive: true });
  writeFileSync(path.join(paths.cache, "jsonrpc.node.json"), JSON.stringify({ pid: process.pid, ports: [18545] }));
  await advance({ identifier: "day", count: 1 }, hre);
  rmSync(path.join(paths.cache, "jsonrpc.node.json"));
  console.warn = warn;
  console.log = print;
  out("advance", { printed, moved: String(after - before), toNext: String(next - after), both, warned });
} finally {
  console.log = print;
}
await networkHooks.closeConnection(context, conn, async () => undefined);
out("closed", true);
