/**
 * `npx hardhat node --port 0` takes free ports for both listeners (HTTP and the WebSocket-only one),
 * and `--port P` puts the WebSocket-only listener at P + 1 on the same host (loopback by default), so
 * two such nodes run side by side; a listener whose address is taken stops the start with a
 * message that names the flag moving it.
 */
import { expect } from "chai";
import { createServer } from "node:net";
import { WebSocket } from "ws";
import { type Started, startHardhatNode, stopProcessGroup, waitForOutput } from "../helpers/processes";
import { rpc } from "../helpers/json-rpc";

/** Whether `port` on 127.0.0.1 can be listened on now. */
function isFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = createServer();
    s.once("error", () => resolve(false));
    s.listen(port, "127.0.0.1", () => s.close(() => resolve(true)));
  });
}

/** A port P with P and P + 1 free on 127.0.0.1 (what a node moved with --port P takes). */
async function freePair(): Promise<number> {
  for (let i = 0; i < 50; i++) {
    const port = 20_000 + Math.floor(Math.random() * 40_000);
    if ((await isFree(port)) && (await isFree(port + 1))) return port;
  }
  throw new Error("no two free ports side by side");
}

/** The WebSocket-only listener's URL from the banner. */
function wsOnlyUrl(node: Started): string {
  const m = /WebSocket JSON-RPC server at (ws:\/\/\S+)/.exec(node.output());
  if (m === null) throw new Error(`no WebSocket-only listener in the banner:\n${node.output()}`);
  return m[1];
}

async function wsChainId(url: string): Promise<unknown> {
  const ws = new WebSocket(url);
  try {
    await new Promise<void>((resolve, reject) => {
      ws.once("open", () => resolve());
      ws.once("error", reject);
    });
    const answer = new Promise<unknown>((resolve) => ws.once("message", (data) => resolve(JSON.parse(String(data)))));
    ws.send(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId", params: [] }));
    return await answer;
  } finally {
    ws.close();
  }
}

describe("npx hardhat node: ports", function () {
  this.timeout(120_000);
  const nodes: Started[] = [];
  after(async () => {
    for (const n of nodes) await stopProcessGroup(n.child);
  });

  it("two nodes started with --port 0 side by side both serve, over HTTP and their WebSocket-only listeners", async () => {
    nodes.push(await startHardhatNode(["--port", "0"]));
    nodes.push(await startHardhatNode(["--port", "0"]));
    const [a, b] = nodes;
    for (const n of nodes) await waitForOutput(n, "WebSocket JSON-RPC server at ws://");
    expect(a.url).to.not.equal(b.url);
    const urls = [wsOnlyUrl(a), wsOnlyUrl(b)];
    expect(urls[0]).to.not.equal(urls[1]);
    for (const url of urls) expect(url, "beside the HTTP listener, on its host").to.match(/^ws:\/\/127\.0\.0\.1:\d+\/$/);
    for (const n of nodes) expect((await rpc(n.url, "eth_chainId")).result).to.equal("0x2328");
    for (const url of urls) expect(await wsChainId(url)).to.deep.include({ id: 1, result: "0x2328" });
  });

  it("a node moved with --port moves its WebSocket-only listener beside it, on loopback: two projects' nodes do not collide", async () => {
    const ports = [await freePair()];
    let second = await freePair();
    while (Math.abs(second - ports[0]) < 2) second = await freePair();
    ports.push(second);
    const started = [];
    for (const port of ports) {
      const n = await startHardhatNode(["--port", String(port)]);
      nodes.push(n);
      started.push(n);
      await waitForOutput(n, "WebSocket JSON-RPC server at ws://");
    }
    for (let i = 0; i < 2; i++) {
      expect(wsOnlyUrl(started[i])).to.equal(`ws://127.0.0.1:${ports[i] + 1}/`);
      expect(await wsChainId(wsOnlyUrl(started[i]))).to.deep.include({ id: 1, result: "0x2328" });
      // nothing beyond loopback: the banner does not warn
      expect(started[i].output()).to.not.match(/from other machines|0\.0\.0\.0/);
    }
  });

  it("a WebSocket address in use stops the start with a message naming --json-rpc.ws-address", async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", () => resolve()));
    const port = (taken.address() as { port: number }).port;
    try {
      const failed = await startHardhatNode(["--port", "0", "--json-rpc.ws-address", `127.0.0.1:${port}`]).then(
        (n) => {
          nodes.push(n);
          return undefined;
        },
        (err: Error) => err.message,
      );
      expect(failed, "the node did not start").to.be.a("string");
      expect(failed).to.include(`the WebSocket listener's address 127.0.0.1:${port} is in use (another node?): move it with --json-rpc.ws-address HOST:PORT`);
      expect(failed).to.not.include("An unexpected error occurred");
    } finally {
      taken.close();
    }
  });
});
