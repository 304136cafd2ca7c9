/**
 * JSON-RPC over real HTTP, as a client sends it: the one helper every test that talks to a server
 * uses (a running `hardhat node`, or a runtime served on a port).
 */
export { rpcError } from "./harness";

/** A JSON-RPC answer (one member of a batch's array too). */
export interface RpcAnswer<T = unknown> {
  jsonrpc?: string;
  id?: unknown;
  result?: T;
  error?: { code: number; message: string; data?: unknown };
}

/**
 * POSTs `body` (a request, a batch, or a string sent as it is) to `url`: the HTTP status, the answer
 * parsed (undefined when the body is not JSON) and its text.
 */
export async function post<J = RpcAnswer & RpcAnswer[]>(url: string, body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; json: J; text: string }> {
  const res = await fetch(url, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: typeof body === "string" ? body : JSON.stringify(body) });
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, json: json as J, text };
}

/** One call of `method`: its answer, result or error. */
export async function rpc<T = unknown>(url: string, method: string, params: unknown[] = [], headers: Record<string, string> = {}): Promise<RpcAnswer<T>> {
  return (await post<RpcAnswer<T>>(url, { jsonrpc: "2.0", id: 1, method, params }, headers)).json;
}

/** One call's result; an error answer throws an Error carrying its message, code and data. */
export async function rpcResult<T = unknown>(url: string, method: string, params: unknown[] = [], headers: Record<string, string> = {}): Promise<T> {
  const answer = await rpc<T>(url, method, params, headers);
  if (answer.error !== undefined) throw Object.assign(new Error(answer.error.message), answer.error);
  return answer.result as T;
}
