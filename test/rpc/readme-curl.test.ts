/**
 * The README's curl line for epochs_advance, sent as curl sends it (its headers and body, over real
 * HTTP) to a node's JSON-RPC server: a body the server refuses (no `jsonrpc`, no `id`) fails here.
 */
import { expect } from "chai";
import { readFileSync } from "node:fs";
import path from "node:path";
import { newEpochInfo } from "../../src/epochs";
import { createRuntime, type Runtime } from "../../src/app/runtime";
import { JsonRpcServer } from "../../src/rpc/transport/server";
import { CLIENT_VERSION, testChainConfig } from "../helpers/harness";
import { ROOT } from "../helpers/processes";

/** The README's curl command for `method`: its headers (-H), its body (-d) and the URL it names. */
function readmeCurl(method: string): { headers: Record<string, string>; body: string; url: string } {
  const readme = readFileSync(path.join(ROOT, "README.md"), "utf8");
  const line = readme.split("\n").find((l) => l.includes("curl ") && l.includes(`"method":"${method}"`));
  if (line === undefined) throw new Error(`README.md shows no curl line for ${method}`);
  const command = /`(curl [^`]+)`/.exec(line)?.[1] ?? "";
  const headers = Object.fromEntries([...command.matchAll(/-H '([^:']+):\s*([^']+)'/g)].map((m) => [m[1].toLowerCase(), m[2]]));
  const body = /-d '([^']+)'/.exec(command)?.[1];
  const url = /(http:\/\/\S+)$/.exec(command)?.[1];
  if (body === undefined || url === undefined) throw new Error(`README.md's curl line for ${method} has no -d body or URL: ${command}`);
  return { headers, body, url };
}

describe("the README's curl line for epochs_advance", function () {
  this.timeout(60_000);
  let runtime: Runtime;
  let server: JsonRpcServer;
  let url: string;

  before(async () => {
    runtime = await createRuntime({ chain: testChainConfig(), clientVersion: CLIENT_VERSION, epochs: { genesis: { epochs: [newEpochInfo("day", 86_400n)] } } });
    server = new JsonRpcServer(runtime.dispatcher, { host: "127.0.0.1", port: 0 });
    url = `http://127.0.0.1:${(await server.listen()).httpAddress.port}/`;
  });
  after(async () => {
    await server?.close();
    await runtime?.close();
  });

  it("is a JSON-RPC request the node answers: the day timer moves two epochs on", async () => {
    const curl = readmeCurl("epochs_advance");
    expect(curl.url).to.equal("http://127.0.0.1:8545");
    const res = await fetch(url, { method: "POST", headers: curl.headers, body: curl.body });
    expect(res.status).to.equal(200);
    const answer = (await res.json()) as { jsonrpc: string; id: unknown; result?: unknown; error?: unknown };
    expect(answer.error).to.equal(undefined);
    expect(answer).to.include({ jsonrpc: "2.0", id: 1 });
    // from genesis (epoch 0, not started), two advances end at epoch 2
    const current = (await (
      await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "epochs_currentEpoch", params: ["day"] }) })
    ).json()) as { result: unknown };
    expect(answer.result).to.deep.equal(current.result);
    expect(answer.result).to.deep.equal({ current_epoch: "2" });
  });
});
