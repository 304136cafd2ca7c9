/** A harness over real HTTP: the runtime behind a JsonRpcServer on 127.0.0.1, port 0. */
import { JsonRpcServer } from "../../src/rpc/transport/server";
import { type RuntimeOptions, createRuntime } from "../../src/app/runtime";
import type { JsonRpcResponse } from "../../src/rpc/types";
import WebSocket from "ws";
import { CLIENT_VERSION, type Harness, testChainConfig, unwrap } from "./harness";

export const TEST_TOKEN = "test-token-0123456789";

/** Over HTTP with the bearer token (private namespaces allowed), like an operator's client. */
export async function serveHttp(opts: Partial<RuntimeOptions> = {}): Promise<Harness> {
  const runtime = await createRuntime({ chain: testChainConfig(), clientVersion: CLIENT_VERSION, ...opts });
  const server = new JsonRpcServer(runtime.dispatcher, { host: "127.0.0.1", port: 0, token: TEST_TOKEN });
  // the REST routes and the listeners admin_* controls, as the node serves them
  runtime.serve(server);
  const { httpAddress } = await server.listen();
  const url = `http://127.0.0.1:${httpAddress.port}/`;
  const raw = async (body: unknown) => {
    const res = await fetch(url, { method: "POST", headers: { "content-type": "application/json", authorization: `Bearer ${TEST_TOKEN}` }, body: JSON.stringify(body) });
    return res.json();
  };
  let id = 1;
  return {
    name: "http",
    runtime,
    url,
    raw,
    async request<T>(method: string, params: unknown[] = []): Promise<T> {
      return unwrap<T>((await raw({ jsonrpc: "2.0", id: id++, method, params })) as JsonRpcResponse);
    },
    async close() {
      await server.close();
      await runtime.close();
    },
  };
}

/** Over a real WebSocket (with the token on the upgrade), one connection per harness. */
export async function serveWs(opts: Partial<RuntimeOptions> = {}): Promise<Harness> {
  const runtime = await createRuntime({ chain: testChainConfig(), clientVersion: CLIENT_VERSION, ...opts });
  const server = new JsonRpcServer(runtime.dispatcher, { host: "127.0.0.1", port: 0, token: TEST_TOKEN });
  runtime.serve(server);
  const { httpAddress } = await server.listen();
  const url = `ws://127.0.0.1:${httpAddress.port}/`;
  const ws = new WebSocket(url, { headers: { authorization: `Bearer ${TEST_TOKEN}` } });
  await new Promise((resolve, reject) => ws.once("open", resolve).once("error", reject));
  // answers by id; a batch is answered by the id of its first member
  const waiting = new Map<unknown, (res: unknown) => void>();
  ws.on("message", (m) => {
    const msg = JSON.parse(String(m)) as unknown;
    const first = Array.isArray(msg) ? (msg[0] as { id?: unknown } | undefined) : (msg as { id?: unknown });
    const done = waiting.get(first?.id);
    if (done === undefined) return;
    waiting.delete(first?.id);
    done(msg);
  });
  let nextId = 1;
  const raw = (body: unknown): Promise<unknown> => {
    const first = Array.isArray(body) ? (body[0] as { id?: unknown } | undefined) : (body as { id?: unknown } | undefined);
    return new Promise((resolve) => {
      waiting.set(first?.id ?? null, resolve);
      ws.send(JSON.stringify(body));
    });
  };
  return {
    name: "ws",
    runtime,
    url,
    raw,
    async request<T>(method: string, params: unknown[] = []): Promise<T> {
      return unwrap<T>((await raw({ jsonrpc: "2.0", id: nextId++, method, params })) as JsonRpcResponse);
    },
    async close() {
      ws.close();
      await server.close();
      await runtime.close();
    },
  };
}
