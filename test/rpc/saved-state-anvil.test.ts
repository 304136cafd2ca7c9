/**
 * Saved state between Anvil and this node (Anvil from its npm package): a dump of Anvil loads here,
 * ours loads in Anvil, with the same accounts, code and storage.
 */
import { expect } from "chai";
import { anvilBinary, startAnvil } from "../helpers/anvil";
import { requireTool } from "../helpers/tools";
import { type Harness, inProcess } from "../helpers/harness";

// stores 0x2a at slot 0 and 0x07 at slot 5, then returns runtime code that answers slot 0
const INIT = "0x602a6000556007600555600b8060156000396000f360005460005260206000f3";

async function accountView(h: Harness, addresses: string[]) {
  const out: Record<string, unknown> = {};
  for (const a of addresses) {
    out[a] = {
      balance: await h.request("eth_getBalance", [a, "latest"]),
      nonce: await h.request("eth_getTransactionCount", [a, "latest"]),
      code: await h.request("eth_getCode", [a, "latest"]),
      slots: [await h.request("eth_getStorageAt", [a, "0x0", "latest"]), await h.request("eth_getStorageAt", [a, "0x5", "latest"])],
    };
  }
  return out;
}

/** Sends a transfer and a deployment from the first account; returns the addresses involved. */
async function history(h: Harness): Promise<string[]> {
  const [from, to] = await h.request<string[]>("eth_accounts");
  await h.request("eth_sendTransaction", [{ from, to, value: "0x1000", gasPrice: "0x77359400" }]);
  const hash = await h.request<string>("eth_sendTransaction", [{ from, data: INIT, gasPrice: "0x77359400" }]);
  if ((await h.request<string>("eth_blockNumber")) === "0x1") await h.request("evm_mine");
  const receipt = await h.request<{ contractAddress: string }>("eth_getTransactionReceipt", [hash]);
  return [from, to, receipt.contractAddress];
}

describe("saved state: round trips with Anvil", function () {
  this.timeout(120_000);
  const bin = anvilBinary();
  let anvil: Harness;
  let ours: Harness;

  before(async function () {
    requireTool(this, "Anvil", bin === undefined ? "npm installed no @foundry-rs/anvil binary for this platform" : undefined, "npm ci installs it from @foundry-rs/anvil's platform package");
    ({ h: anvil } = await startAnvil(bin as string));
  });
  beforeEach(async () => {
    ours = await inProcess();
  });
  afterEach(async () => {
    await ours?.close();
  });
  after(async () => {
    await anvil?.close();
  });

  it("a dump of Anvil loads here: the same accounts, code and storage", async () => {
    const addresses = await history(anvil);
    const dump = await anvil.request<string>("anvil_dumpState");
    expect(await ours.request("anvil_loadState", [dump])).to.equal(true);
    const mine = await accountView(ours, addresses);
    expect(mine).to.deep.equal(await accountView(anvil, addresses));
    expect((mine[addresses[2]] as { slots: string[] }).slots[1]).to.equal(`0x${"0".repeat(63)}7`);
  });

  it("our dump loads in Anvil: the same accounts, code and storage", async () => {
    const addresses = await history(ours);
    const dump = await ours.request<string>("hardhat_dumpState");
    const fresh = (await startAnvil(bin as string)).h;
    try {
      expect(await fresh.request("anvil_loadState", [dump])).to.equal(true);
      const theirs = await accountView(fresh, addresses);
      expect(theirs).to.deep.equal(await accountView(ours, addresses));
      expect((theirs[addresses[2]] as { code: string }).code).to.equal("0x60005460005260206000f3");
    } finally {
      await fresh.close();
    }
  });
});
