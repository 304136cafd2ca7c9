/** A harness over real HTTP: the runtime behind a JsonRpcServer on 127.0.0.1, port 0. */
import { JsonRpcServer } from "../../src/rpc/transport/server";
import { type RuntimeOptions, createRuntime } from "../../src/rpc/runtime";
import type { JsonRpcResponse } from "../../src/rpc/types";
import { CLIENT_VERSION, type Harness, testChainConfig, unwrap } from "./harness";

export const TEST_TOKEN = "test-token-0123456789";

/** Over HTTP with the bearer token (private namespaces allowed), like an operator's client. */
export async function serveHttp(opts: Partial<RuntimeOptions> = {}): Promise<Harness> {
  const runtime = await createRuntime({ chain: testChainConfig(), clientVersion: CLIENT_VERSION, ...opts });
  const server = new JsonRpcServer(runtime.dispatcher, { host: "127.0.0.1", port: 0, token: TEST_TOKEN });
  const { httpAddress } = await server.listen();
  runtime.admin.listeners = server.listeners;
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
