/**
 * No single request that any origin may send holds the node: EVM code gives the event loop a turn
 * every few milliseconds (src/utils/turn.ts, TURN_MS), every read execution is capped at the RPC
 * gas cap whatever gas it names, eth_simulateV1 runs all its calls against one pool of it, and
 * eth_blockNumber is answered while a block is being made. The worst requests found by review are
 * sent from a foreign page over HTTP and WebSocket while another client pings eth_blockNumber.
 * docs/security.md, "Bounded work".
 */
import { expect } from "chai";
import WebSocket from "ws";
import { type Runtime, createRuntime } from "../../src/app/runtime";
import { JsonRpcServer } from "../../src/rpc/transport/server";
import { CLIENT_VERSION, testChainConfig } from "../helpers/harness";
import { whilePinging as pingWhile } from "../helpers/pinger";
import { post as postTo } from "../helpers/json-rpc";

const EVIL = "https://evil.example";
/**
 * An endless loop that is slow for its gas: JUMPDEST, fifty times (PC POP) at 2 gas each, PUSH1 0
 * JUMP. 16.7M gas of it keeps an EVM that never yields busy for well over a second.
 */
const LOOP_RUNTIME = `5b${"5850".repeat(50)}600056`;
const LOOP_CODE = `0x${LOOP_RUNTIME}`;
/** Init code that deploys LOOP_RUNTIME (104 bytes): CODECOPY it from offset 12 and RETURN it. */
const LOOP_INIT = `0x6068600c60003960686000f3${LOOP_RUNTIME}`;
const LOOP = "0x000000000000000000000000000000000000100f";
const OVERRIDE = { [LOOP]: { code: LOOP_CODE } };
/** A loop whose every pass is a long straight line (5,000 PC POP): few JUMPDESTs for its work. */
const LINE_OVERRIDE = { [LOOP]: { code: `0x5b${"5850".repeat(5000)}600056` } };
/** No loop and no JUMPDEST: 600,000 PC POP in one straight line (2.4 MB of hex, under the 5 MB body limit). */
const STRAIGHT_OVERRIDE = { [LOOP]: { code: `0x${"5850".repeat(600_000)}` } };
/** Longest another client may wait for eth_blockNumber meanwhile (a loaded CI machine included). */
const MAX_WAIT_MS = 1000;

interface Answer {
  id?: number;
  result?: unknown;
  error?: { code: number; message: string };
}

describe("bounded work: no request from any origin holds the node", function () {
  this.timeout(120_000);
  let runtime: Runtime;
  let server: JsonRpcServer;
  let url: string;
  let wsUrl: string;

  const post = async (body: unknown, origin?: string): Promise<Answer & Answer[]> => (await postTo<Answer & Answer[]>(url, body, origin === undefined ? {} : { origin })).json;
  const call = (method: string, params: unknown[], origin = EVIL) => post({ jsonrpc: "2.0", id: 1, method, params }, origin);

  const whilePinging = <T>(attack: () => Promise<T>) => pingWhile(url, attack);

  before(async () => {
    // gas ends these loops (3-4 s each on an idle machine); the 5 s call timeout is not what this file
    // checks, and a loaded machine passed it mid-suite
    runtime = await createRuntime({ chain: testChainConfig(), clientVersion: CLIENT_VERSION, rpc: { evmTimeoutMs: 30_000 } });
    server = new JsonRpcServer(runtime.dispatcher, { host: "127.0.0.1", port: 0, ws: { host: "127.0.0.1", port: 0 }, token: "bounded-work-token" });
    const { httpAddress, wsAddress } = await server.listen();
    url = `http://127.0.0.1:${httpAddress.port}/`;
    wsUrl = `ws://127.0.0.1:${wsAddress?.port}/`;
  });
  after(async () => {
    await server.close();
    await runtime.close();
  });

  it("eth_simulateV1 with a huge block gas limit and looping calls: one pool of the gas cap for the whole request", async () => {
    const calls = Array.from({ length: 8 }, () => ({ to: LOOP, gas: "0xf42400" }));
    const { result, longestMs, pings } = await whilePinging(() =>
      call("eth_simulateV1", [{ blockStateCalls: [{ blockOverrides: { gasLimit: "0xffffffffffff" }, stateOverrides: OVERRIDE, calls }] }, "latest"]),
    );
    expect(result.error).to.deep.equal({ code: -32000, message: "gas limit reached: the request used all of the node's RPC gas cap (25000000)" });
    expect(pings).to.be.greaterThan(2);
    expect(longestMs).to.be.lessThan(MAX_WAIT_MS);
    // within the pool, calls run and report their gas
    const two = await call("eth_simulateV1", [
      {
        blockStateCalls: [
          {
            stateOverrides: OVERRIDE,
            calls: [
              { to: LOOP, gas: "0x989680" },
              { to: LOOP, gas: "0x989680" },
            ],
          },
        ],
      },
      "latest",
    ]);
    const used = (two.result as Array<{ calls: Array<{ gasUsed: string; status: string }> }>)[0].calls.map((c) => BigInt(c.gasUsed));
    expect(used).to.deep.equal([10_000_000n, 10_000_000n]);
  });

  it("eth_call, eth_estimateGas and a call trace of an endless loop run with the event loop served", async () => {
    for (const [method, params] of [
      ["eth_call", [{ to: LOOP, gas: "0xffffff" }, "latest", OVERRIDE]],
      ["eth_estimateGas", [{ to: LOOP }, "latest", OVERRIDE]],
      ["debug_traceCall", [{ to: LOOP, gas: "0xffffff" }, "latest", { tracer: "callTracer", timeout: "1s", stateOverrides: OVERRIDE }]],
      ["eth_call", [{ to: LOOP, gas: "0xffffff" }, "latest", LINE_OVERRIDE]],
    ] as const) {
      const { result, longestMs } = await whilePinging(() => call(method, [...params]));
      expect(result.error?.code, method).to.equal(-32000);
      expect(result.error?.message, method).to.match(/out of gas|execution timeout/);
      expect(longestMs, method).to.be.lessThan(MAX_WAIT_MS);
    }
  });

  it("a call trace of a long straight line of code (no JUMPDEST for the EVM's own turns): the trace gives the turns", async () => {
    const { result, longestMs } = await whilePinging(() => call("debug_traceCall", [{ to: LOOP, gas: "0x2191c0" }, "latest", { tracer: "callTracer", stateOverrides: STRAIGHT_OVERRIDE }]));
    expect(result.result).to.deep.include({ gasUsed: "0x2191c0", error: "out of gas" });
    expect(longestMs).to.be.lessThan(MAX_WAIT_MS);
  });

  it("a call with a state override of 15,000 slots: the other client is answered while they are written", async () => {
    const stateDiff: Record<string, string> = {};
    for (let i = 0; i < 15_000; i++) stateDiff[`0x${i.toString(16).padStart(64, "0")}`] = `0x${"11".repeat(32)}`;
    const { result, longestMs } = await whilePinging(() => call("eth_call", [{ to: LOOP, gas: "0x5208" }, "latest", { [LOOP]: { stateDiff } }]));
    expect(result.result, JSON.stringify(result.error)).to.equal("0x");
    expect(longestMs).to.be.lessThan(MAX_WAIT_MS);
  });

  it("a batch of looping calls over a foreign page's WebSocket: the other client is answered throughout", async () => {
    const ws = new WebSocket(wsUrl, { headers: { origin: EVIL } });
    await new Promise((resolve, reject) => ws.once("open", resolve).once("error", reject));
    try {
      // half the gas of the other loops: three in one batch
      const batch = Array.from({ length: 3 }, (_, id) => ({ jsonrpc: "2.0", id, method: "eth_call", params: [{ to: LOOP, gas: "0x7fffff" }, "latest", OVERRIDE] }));
      const { result, longestMs } = await whilePinging(
        () =>
          new Promise<Answer[]>((resolve) => {
            ws.once("message", (m) => resolve(JSON.parse(String(m)) as Answer[]));
            ws.send(JSON.stringify(batch));
          }),
      );
      expect(result.map((a) => a.error?.message)).to.deep.equal(["out of gas", "out of gas", "out of gas"]);
      expect(longestMs).to.be.lessThan(MAX_WAIT_MS);
    } finally {
      ws.close();
    }
  });

  it("a looping transaction sent from a dev account by a foreign page: eth_blockNumber answers while its block is made", async () => {
    const [from] = (await call("eth_accounts", [])).result as string[];
    // init code that deploys the loop
    const deployed = await call("eth_sendTransaction", [{ from, data: LOOP_INIT }]);
    const receipt = (await call("eth_getTransactionReceipt", [deployed.result])).result as { contractAddress: string };
    const { result, longestMs } = await whilePinging(() => call("eth_sendTransaction", [{ from, to: receipt.contractAddress, gas: "0xffffff" }]));
    expect(result.error?.message).to.equal("out of gas");
    expect(longestMs).to.be.lessThan(MAX_WAIT_MS);
  });

  it("a call that names more gas than the node's gas cap runs with the cap (geth's 'caller gas above allowance')", async () => {
    const capped = await createRuntime({ chain: testChainConfig({ gasCap: 1_000_000n }), clientVersion: CLIENT_VERSION });
    try {
      const ctx = { transport: "http" as const, authenticated: false, devOpen: false };
      const trace = (await capped.dispatcher.call("debug_traceCall", [{ to: LOOP, gas: "0xffffff" }, "latest", { tracer: "callTracer", stateOverrides: OVERRIDE }], ctx)) as {
        gas: string;
        gasUsed: string;
        error: string;
      };
      expect(trace).to.deep.include({ gas: "0xf4240", gasUsed: "0xf4240", error: "out of gas" });
      const traced = (await capped.dispatcher.call("trace_call", [{ to: LOOP, gas: "0xffffff" }, ["trace"], "latest"], ctx)) as { trace: Array<{ action: { gas: string } }> };
      expect(BigInt(traced.trace[0].action.gas)).to.be.lessThan(1_000_000n);
    } finally {
      await capped.close();
    }
  });

  it("hardhat_mine refuses a span no call should make, at once, and gives turns while it makes a long one", async () => {
    for (const [count, interval] of [
      ["0x3b9aca00", "0x1"],
      ["0xe8d4a51000", "0x1"],
      ["0x2", "0x2540be400"],
    ]) {
      const t = Date.now();
      const a = await call("hardhat_mine", [count, interval], "http://localhost:3000");
      expect(a.error?.code, count).to.equal(-32000);
      expect(a.error?.message, count).to.match(/^cannot mine \d+ blocks/);
      expect(Date.now() - t, "refused at once").to.be.lessThan(MAX_WAIT_MS);
    }
    const before = BigInt((await call("eth_blockNumber", [])).result as string);
    const { result, longestMs } = await whilePinging(() => call("hardhat_mine", ["0x5f5e100", "0x1"], "http://localhost:3000"));
    expect(result.result).to.equal(true);
    expect(BigInt((await call("eth_blockNumber", [])).result as string)).to.equal(before + 100_000_000n);
    expect(longestMs).to.be.lessThan(MAX_WAIT_MS);
  });
});
