/**
 * The epochs page (GET /epochs) in a real browser: Debian's Chromium driven by playwright-core (no
 * browser download). The page shows the timers and hooks, and when time is advanced over JSON-RPC the
 * new tick and the hook results appear without a reload. Skipped where no Chromium is installed
 * (.ci/run installs Debian's `chromium` package).
 */
import { expect } from "chai";
import { getAddress } from "ethers";
import { requireTool } from "../helpers/tools";
import { existsSync, writeFileSync } from "node:fs";
import path from "node:path";
import { type Browser, type Page, chromium } from "playwright-core";
import { newEpochInfo } from "../../src/epochs";
import { createRuntime, type Runtime } from "../../src/app/runtime";
import { JsonRpcServer } from "../../src/rpc/transport/server";
import { CLIENT_VERSION, testChainConfig, unwrap } from "../helpers/harness";
import type { JsonRpcResponse } from "../../src/rpc/types";
import { compileStandard } from "../helpers/solc";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

const HOOKS = `
// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;
interface IEpochs { function registerHooks() external returns (bool); }
contract Counter {
  uint256 public n;
  constructor() { IEpochs(0x0000000000000000000000000000000000000900).registerHooks(); }
  function beforeEpochStart(string calldata, int64) external { n++; }
  function afterEpochEnd(string calldata, int64) external {}
}
contract Grumpy {
  constructor() { IEpochs(0x0000000000000000000000000000000000000900).registerHooks(); }
  function beforeEpochStart(string calldata, int64) external pure {}
  function afterEpochEnd(string calldata, int64) external pure { revert("not today"); }
}`;

describe("the epochs page in a browser", function () {
  this.timeout(120_000);
  let runtime: Runtime;
  let server: JsonRpcServer;
  let url: string;
  let browser: Browser | undefined;
  const addresses: string[] = [];

  before(async function () {
    requireTool(this, "Chromium", existsSync(CHROMIUM) ? undefined : `no browser at ${CHROMIUM}`, "install Debian's chromium package (apt-get install chromium; .ci/run does)");
    // as the node serves it: the runtime's REST routes (the page among them) on the JSON-RPC port
    runtime = await createRuntime({ chain: testChainConfig(), clientVersion: CLIENT_VERSION, epochs: { genesis: { epochs: [newEpochInfo("minute", 60n), newEpochInfo("day", 86_400n)] } } });
    server = new JsonRpcServer(runtime.dispatcher, { host: "127.0.0.1", port: 0 });
    runtime.mountRest(server.rest);
    url = `http://127.0.0.1:${(await server.listen()).httpAddress.port}/`;
    // the project's compilation, as Hardhat hands it to the node: the page names the contracts
    const c = compileStandard({ "Hooks.sol": HOOKS });
    expect(await h.request("hardhat_addCompilationResult", [c.solcVersion, c.input, c.output])).to.equal(true);
    const [from] = await h.request<string[]>("eth_accounts");
    for (const name of ["Counter", "Grumpy"]) {
      const tx = await h.request<string>("eth_sendTransaction", [{ from, data: `0x${c.output.contracts["Hooks.sol"][name].evm.bytecode.object}` }]);
      addresses.push((await h.request<{ contractAddress: string }>("eth_getTransactionReceipt", [tx])).contractAddress);
    }
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
    });
  });
  after(async () => {
    await browser?.close();
    await server?.close();
    await runtime?.close();
  });
  let id = 1;
  const h = {
    request: async <T>(method: string, params: unknown[] = []): Promise<T> => {
      const res = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: id++, method, params }) });
      return unwrap<T>((await res.json()) as JsonRpcResponse);
    },
  };

  /** The page, opened and ready, with the errors its scripts and console report (a missing icon was a 404 there). */
  const openPage = async (): Promise<{ page: Page; errors: string[] }> => {
    const page = await (browser as Browser).newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    page.on("console", (m) => {
      if (m.type() === "error") errors.push(`console: ${m.text()}`);
    });
    await page.goto(`${url}epochs`);
    await page.waitForSelector("body[data-ready=true]");
    return { page, errors };
  };

  it("serves the page with a policy that keeps it to its own origin", async () => {
    const res = await fetch(`${url}epochs`);
    expect(res.status).to.equal(200);
    expect(res.headers.get("content-type")).to.match(/^text\/html/);
    expect(res.headers.get("content-security-policy")).to.include("default-src 'none'").and.include("script-src 'self'");
    expect((await fetch(`${url}epochs/page.js`)).headers.get("content-type")).to.match(/^text\/javascript/);
  });

  it("links the node's own address to the page, and answers the browser's icon request without a 404", async () => {
    const index = await fetch(url);
    expect(index.status).to.equal(200);
    expect(index.headers.get("content-type")).to.match(/^text\/html/);
    expect(await index.text()).to.include('<a href="/epochs">');
    expect((await fetch(`${url}favicon.ico`)).status).to.equal(204);
    // JSON-RPC still posts to the same address
    expect(await h.request("eth_chainId")).to.match(/^0x/);
  });

  it("shows the timers and hooks, then the next tick and the hook results live, without a reload", async () => {
    const { page, errors } = await openPage();
    const epochOf = (id: string) => page.textContent(`tr[data-identifier="${id}"] td.epoch`);
    expect(await epochOf("minute")).to.equal("1");
    expect(await epochOf("day")).to.equal("1");
    expect(await page.locator("tr[data-identifier=minute] td.countdown").textContent()).to.match(/^\d+s$|^\d+m \d+s$/);
    // by contract name, checksummed as ethers gives a contract's address (the events keep the attribute form the chain pins)
    expect(await page.locator("#hooks li").allTextContents()).to.deep.equal([`Counter ${getAddress(addresses[0])}`, `Grumpy ${getAddress(addresses[1])}`]);
    // the timers' first epochs started in block 1: the page opens on them, from the recent blocks
    expect(await page.locator('#events > li.block[data-block="1"] .event.epoch_start').allTextContents()).to.deep.equal([
      "begin-block · epoch_start · day #1",
      "begin-block · epoch_start · minute #1",
    ]);
    expect(await page.locator("#no-events").isVisible()).to.equal(false);
    // one minute and a bit of chain time, over JSON-RPC: the minute epoch ends, then the next starts
    await h.request("evm_increaseTime", [61]);
    await h.request("evm_mine");
    await h.request("evm_mine");
    // a locator, not a function: the page's policy forbids evaluating strings
    await page.locator('tr[data-identifier="minute"] td.epoch', { hasText: /^2$/ }).waitFor();
    await page.waitForSelector("li.block .event.epoch_start");
    const failed = await page.locator("li.block .event.epoch_hook_failed").first().textContent();
    expect(failed)
      .to.include(`AfterEpochEnd on Grumpy ${getAddress(addresses[1])}`)
      .and.include("not today");
    const ok = await page.locator("li.block .event.epoch_hook").allTextContents();
    expect(ok.some((t) => t.includes("BeforeEpochStart on Counter") && t.includes("gas"))).to.equal(true);
    expect(await epochOf("day")).to.equal("1");
    if (process.env.EPOCHS_PAGE_SCREENSHOT !== undefined) writeFileSync(path.resolve(process.env.EPOCHS_PAGE_SCREENSHOT), await page.screenshot({ fullPage: true }));
    expect(errors).to.deep.equal([]);
    await page.close();
  });

  it("opens on the recent history: each block with epoch events, newest first, its ticks and hook calls in place", async () => {
    // the blocks the test before made: a page opened now finds them without waiting for new ones
    const { page, errors } = await openPage();
    const blocks = (await page.locator("#events > li.block").evaluateAll((lis) => lis.map((li) => Number(li.getAttribute("data-block"))))) as number[];
    expect(blocks.length).to.be.greaterThan(0);
    expect([...blocks].sort((a, b) => b - a)).to.deep.equal(blocks);
    // the minute's end and the next start, each in its block, the failing hook's reason under it
    const ended = page.locator("#events > li.block", { has: page.locator(".event.epoch_hook_failed") }).first();
    expect(await ended.locator(".event.epoch_end").count()).to.equal(1);
    expect(await ended.locator(".event.epoch_hook_failed pre").textContent()).to.include("not today");
    expect(await page.locator("#events .event.epoch_start").count()).to.be.greaterThan(0);
    expect(await page.locator("#no-events").isVisible()).to.equal(false);
    expect(errors).to.deep.equal([]);
    await page.close();
  });

  it("keeps a hook's name after the project recompiles its contract with other code", async () => {
    // the source edited and compiled again: the new code no longer matches the deployed one
    const edited = compileStandard({ "Hooks.sol": HOOKS.replace("uint256 public n;", "uint256 public n;\n  function bump() external { n += 2; }") });
    expect(edited.output.contracts["Hooks.sol"].Counter.evm.deployedBytecode.object).to.not.equal(
      compileStandard({ "Hooks.sol": HOOKS }).output.contracts["Hooks.sol"].Counter.evm.deployedBytecode.object,
    );
    expect(await h.request("hardhat_addCompilationResult", [edited.solcVersion, edited.input, edited.output])).to.equal(true);
    const { page, errors } = await openPage();
    expect(await page.locator("#hooks li").allTextContents()).to.deep.equal([`Counter ${getAddress(addresses[0])}`, `Grumpy ${getAddress(addresses[1])}`]);
    expect(await h.request("epochs_hookContracts")).to.deep.equal([
      { address: getAddress(addresses[0]), name: "Counter" },
      { address: getAddress(addresses[1]), name: "Grumpy" },
    ]);
    expect(errors).to.deep.equal([]);
    await page.close();
  });
});
