/**
 * The Cosmos REST beside the JSON-RPC (src/app/rest/cosmos.ts): bank balances of an account, read
 * over real HTTP from the node's server, under each profile's prefix and denom.
 */
import { expect } from "chai";
import { bech32 } from "bech32";
import { getBytes } from "ethers";
import { JsonRpcServer } from "../../src/rpc/transport/server";
import { type Runtime, type RuntimeOptions, createRuntime } from "../../src/app/runtime";
import { CLIENT_VERSION, testChainConfig } from "../helpers/harness";

const DEV = "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266";
const encode = (prefix: string, hex: string): string => bech32.encode(prefix, bech32.toWords(getBytes(hex)));

async function serve(opts: Partial<RuntimeOptions> = {}): Promise<{ runtime: Runtime; server: JsonRpcServer; url: string }> {
  const runtime = await createRuntime({ chain: testChainConfig(), clientVersion: CLIENT_VERSION, ...opts });
  const server = new JsonRpcServer(runtime.dispatcher, { host: "127.0.0.1", port: 0 });
  runtime.mountRest(server.rest);
  return { runtime, server, url: `http://127.0.0.1:${(await server.listen()).httpAddress.port}/` };
}

describe("Cosmos REST: bank balances", function () {
  this.timeout(60_000);

  it("answers an account's native coin (its EVM balance) as the SDK's gateway does, and bad addresses with code 3", async () => {
    const { runtime, server, url } = await serve();
    try {
      const get = async (address: string) => {
        const res = await fetch(`${url}cosmos/bank/v1beta1/balances/${encodeURIComponent(address)}`);
        return { status: res.status, body: (await res.json()) as unknown };
      };
      const rpcBalance = BigInt((await runtime.dispatcher.call("eth_getBalance", [DEV, "latest"], { transport: "http", authenticated: false })) as string);
      expect(await get(encode("evmos", DEV))).to.deep.equal({ status: 200, body: { balances: [{ denom: "aevmos", amount: rpcBalance.toString() }], pagination: { next_key: null, total: "1" } } });
      // an account with nothing has no coins
      expect(await get(encode("evmos", `0x${"42".repeat(20)}`))).to.deep.equal({ status: 200, body: { balances: [], pagination: { next_key: null, total: "0" } } });
      // the balance follows the chain
      await runtime.dispatcher.call("hardhat_setBalance", [`0x${"42".repeat(20)}`, "0x3e8"], { transport: "http", authenticated: true });
      expect((await get(encode("evmos", `0x${"42".repeat(20)}`))).body).to.deep.include({ balances: [{ denom: "aevmos", amount: "1000" }] });
      expect(await get(encode("cosmos", DEV))).to.deep.equal({
        status: 400,
        body: { code: 3, message: "invalid address: hrp does not match bech32 prefix: expected 'evmos' got 'cosmos': internal logic error", details: [] },
      });
      const bad = await get(`${encode("evmos", DEV).slice(0, -1)}${encode("evmos", DEV).endsWith("q") ? "p" : "q"}`);
      expect(bad.status).to.equal(400);
      expect((bad.body as { message: string }).message).to.match(/^invalid address: decoding bech32 failed: /);
      expect((await get("no-address")).status).to.equal(400);
    } finally {
      await server.close();
      await runtime.close();
    }
  });

  it("uses the cosmos-evm profile's prefix and denom (evmd's cosmos and atest)", async () => {
    const { runtime, server, url } = await serve({ epochs: { profile: "cosmos-evm" } });
    try {
      const res = await fetch(`${url}cosmos/bank/v1beta1/balances/${encode("cosmos", DEV)}`);
      const body = (await res.json()) as { balances: Array<{ denom: string; amount: string }> };
      expect(res.status).to.equal(200);
      expect(body.balances.map((b) => b.denom)).to.deep.equal(["atest"]);
    } finally {
      await server.close();
      await runtime.close();
    }
  });
});
