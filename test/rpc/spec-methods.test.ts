/**
 * Every method the specification names (its method list, copied by name into
 * test/fixtures/spec-methods.json) answers something other than -32601 when every namespace is
 * enabled: a result, or an error that says why (bad arguments, not available here, …).
 */
import { expect } from "chai";
import SPEC_METHODS from "../fixtures/spec-methods.json";
import { type Harness, inProcess } from "../helpers/harness";
import { serveHttp } from "../helpers/http";

/** What today's clients (viem 2, web3.js 4) and Evmos's extensions call beyond the list. */
const CLIENT_METHODS = [
  "eth_chainId",
  "eth_createAccessList",
  "eth_simulateV1",
  "eth_blobBaseFee",
  "eth_pendingTransactions",
  "eth_getHeaderByNumber",
  "eth_getHeaderByHash",
  "eth_getAccount",
  "eth_getBlockReceipts",
  "eth_feeHistory",
  "eth_maxPriorityFeePerGas",
  "eth_getTransactionLogs",
  "eth_fillTransaction",
  "eth_resend",
  "eth_getPendingTransactions",
  "eth_signTypedData",
  "admin_startHTTP",
  "admin_stopHTTP",
];

const STOPS = ["admin_stopHTTP", "admin_stopRPC", "admin_stopWS"];

/** Names still answering -32601: none (the list stays so that one creeping back is named). */
const PENDING: string[] = [];

describe("every method of the spec's list answers (never -32601)", function () {
  this.timeout(120_000);
  const names = [...new Set([...(SPEC_METHODS as string[]), ...CLIENT_METHODS])];

  it("has the spec's whole list", () => {
    expect((SPEC_METHODS as string[]).length).to.equal(142);
  });

  for (const [label, make] of [
    ["in-process", inProcess],
    ["http", serveHttp],
  ] as const) {
    it(`answers every name (${label})`, async () => {
      const h: Harness = await make();
      const missing: string[] = [];
      try {
        for (const name of names) {
          // no arguments: a method that needs some answers -32602, which is an answer; the ones that
          // stop a listener get one too many, so the walk goes on over the listener it walks on
          const params = STOPS.includes(name) ? [1] : [];
          const res = (await h.raw({ jsonrpc: "2.0", id: 1, method: name, params })) as { error?: { code: number } };
          if (res.error?.code === -32601) missing.push(name);
        }
      } finally {
        await h.close();
      }
      expect(missing.filter((n) => !PENDING.includes(n))).to.deep.equal([]);
      expect(
        PENDING.filter((n) => !missing.includes(n)),
        "implemented: remove from PENDING",
      ).to.deep.equal([]);
    });
  }
});
