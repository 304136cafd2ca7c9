import { expect } from "chai";
import { type Socket, connect } from "node:net";
import { JsonRpcServer } from "../../../src/rpc/transport/server";
import { isLoopbackHost as isLoopback } from "../../../src/rpc/loopback";
import { FakeDispatcher, type Started, rpc, sleep, start, wsClosed, wsOpen } from "./helpers";

function rawConnect(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const sock = connect(port, "127.0.0.1", () => resolve(sock));
    sock.on("error", reject);
  });
}

/** Resolves true when the server closes the socket within `ms`. */
function closedWithin(sock: Socket, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const t = setTimeout(() => resolve(false), ms);
    sock.on("error", () => undefined);
    sock.once("close", () => {
      clearTimeout(t);
      resolve(true);
    });
  });
}

describe("transport: server limits and lifecycle", function () {
  this.timeout(20_000);

  describe("http-timeout", () => {
    let s: Started;
    before(async () => {
      s = await start({ httpTimeoutMs: 200 });
    });
    after(() => s.server.close());

    it("answers geth's `request timed out` when the dispatcher is slower than the timeout", async () => {
      const started = Date.now();
      const r = await rpc(s.url, { jsonrpc: "2.0", id: 5, method: "slow", params: [1000] });
      expect(Date.now() - started).to.be.lessThan(900);
      expect(r.json).to.deep.equal({ jsonrpc: "2.0", id: 5, error: { code: -32002, message: "request timed out" } });
      const batch = await rpc(s.url, [
        { jsonrpc: "2.0", id: 1, method: "slow", params: [1000] },
        { jsonrpc: "2.0", id: 2, method: "echo" },
        { jsonrpc: "2.0", method: "echo" },
      ]);
      expect(batch.json).to.deep.equal([
        { jsonrpc: "2.0", id: 1, error: { code: -32002, message: "request timed out" } },
        { jsonrpc: "2.0", id: 2, error: { code: -32002, message: "request timed out" } },
      ]);
      expect((await rpc(s.url, { jsonrpc: "2.0", id: 6, method: "slow", params: [20] })).json).to.deep.include({ result: "done" });
    });
  });

  describe("max-open-connections", () => {
    let s: Started;
    before(async () => {
      s = await start({ maxConnections: 2 });
    });
    after(() => s.server.close());

    it("closes connections over the limit at once and serves again when one ends", async () => {
      const held = [await rawConnect(s.port), await rawConnect(s.port)];
      await sleep(30);
      const third = await rawConnect(s.port);
      expect(await closedWithin(third, 1000)).to.equal(true);
      expect(s.logs.some((l) => l.includes("max-open-connections (2) reached"))).to.equal(true);
      for (const h of held) h.destroy();
      await sleep(50);
      expect((await rpc(s.url, { jsonrpc: "2.0", id: 1, method: "echo" })).status).to.equal(200);
    });
  });

  describe("close()", () => {
    it("ends open HTTP keep-alive sockets and WebSockets promptly, firing onClose", async () => {
      const s = await start({ ws: { host: "127.0.0.1", port: 0 } });
      const idle = await rawConnect(s.port);
      const idleClosed = closedWithin(idle, 2000);
      const ws = await wsOpen(s.wsUrl as string);
      const sub = JSON.parse(
        await new Promise<string>((r) => {
          ws.once("message", (b: Buffer) => r(b.toString()));
          ws.send(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "subscribe" }));
        }),
      ) as { result: string };
      expect(sub.result).to.be.a("string");
      const wsDone = wsClosed(ws);
      const started = Date.now();
      await s.server.close();
      expect(Date.now() - started).to.be.lessThan(1000);
      expect(await idleClosed).to.equal(true);
      await wsDone;
      expect(s.dispatcher.closed).to.have.length(1);
      await s.server.waitUntilClosed();
      await s.server.close(); // idempotent
    });

    it("rejects listen() when a port is taken, leaving nothing bound", async () => {
      const a = await start();
      const b = new JsonRpcServer(new FakeDispatcher(), { host: "127.0.0.1", port: 0, ws: { host: "127.0.0.1", port: a.port } });
      try {
        await b.listen().then(
          () => expect.fail("listen should fail"),
          (err: NodeJS.ErrnoException) => expect(err.code).to.equal("EADDRINUSE"),
        );
      } finally {
        await b.close();
        await a.server.close();
      }
    });
  });

  describe("ws address beyond loopback", () => {
    it("tells loopback hosts from the others (the server warns for the others)", () => {
      for (const h of ["127.0.0.1", "127.1.2.3", "::1", "[::1]", "localhost", "::ffff:127.0.0.1"]) expect(isLoopback(h), h).to.equal(true);
      for (const h of ["0.0.0.0", "::", "192.168.1.5", "example.com", ""]) expect(isLoopback(h), h).to.equal(false);
    });
  });
});
