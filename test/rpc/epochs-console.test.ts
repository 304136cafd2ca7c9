/**
 * The epochs page as the chain's console, in Debian's Chromium (playwright-core, no browser
 * download), on a node from cosmos/evm's local_node.sh genesis (x/mint every block) with two timers:
 * each control (advance an epoch, increase time, mine) through the page's own form, the same controls
 * refused to a page the node does not count as this machine's, the panels (accounts, validators,
 * delegations, unbondings, proposals with their tallies) and the timeline's filters and folded runs.
 * Skipped where no Chromium is installed (.ci/run installs Debian's `chromium` package).
 */
import { existsSync, writeFileSync } from "node:fs";
import path from "node:path";
import { expect } from "chai";
import { Interface, getBytes } from "ethers";
import { bech32 } from "bech32";
import { type Browser, type Page, chromium } from "playwright-core";
import { GOV_PRECOMPILE as GOV } from "../../src/cosmos/gov/keeper";
import { GOV_ABI } from "../../src/cosmos/gov/precompile";
import { STAKING_ABI } from "../../src/cosmos/staking/precompile";
import type { Harness } from "../helpers/harness";
import { serveHttp } from "../helpers/http";
import { type LocalNode, closeLocalNode, localNode } from "../helpers/local-node";
import { requireTool } from "../helpers/tools";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const E18 = 10n ** 18n;
const STAKING = "0x0000000000000000000000000000000000000800";
/** local_node.sh's validator key, and a Hardhat test account funded on top of the genesis. */
const VALIDATOR = "0x7cB61D4117AE31a12E393a1Cfa3BaC666481D02E";
const ALICE = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const valoper = (hex: string): string => bech32.encode("cosmosvaloper", bech32.toWords(getBytes(hex)));
const q = (n: bigint): string => `0x${n.toString(16)}`;
const epochInfo = (identifier: string, seconds: number) => ({
  identifier,
  start_time: "0001-01-01T00:00:00Z",
  duration: `${seconds}s`,
  current_epoch: "0",
  current_epoch_start_time: "0001-01-01T00:00:00Z",
  epoch_counting_started: false,
  current_epoch_start_height: "0",
});

async function send(h: Harness, to: string, abi: Interface, fn: string, args: unknown[]): Promise<void> {
  const hash = await h.request<string>("eth_sendTransaction", [{ from: ALICE, to, data: abi.encodeFunctionData(fn, args), gas: q(2_000_000n) }]);
  expect((await h.request<{ status: string }>("eth_getTransactionReceipt", [hash])).status).to.equal("0x1");
}

describe("the epochs page as the chain's console, in a browser", function () {
  this.timeout(120_000);
  let c: LocalNode | undefined;
  let h: Harness;
  let browser: Browser | undefined;
  let port: string;

  before(async function () {
    requireTool(this, "Chromium", existsSync(CHROMIUM) ? undefined : `no browser at ${CHROMIUM}`, "install Debian's chromium package (apt-get install chromium; .ci/run does)");
    c = await localNode((g) => {
      (g.app_state as Record<string, unknown>).epochs = { epochs: [epochInfo("minute", 60), epochInfo("hour", 3600)] };
    }, serveHttp);
    h = c.h;
    port = new URL(h.url as string).port;
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      // app.test is this machine under another name: a page there is not one of the node's allowed origins
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--host-resolver-rules=MAP app.test 127.0.0.1",
      ],
    });
  });
  after(async () => {
    await browser?.close();
    await closeLocalNode(c);
  });

  const open = async (host = "127.0.0.1"): Promise<{ page: Page; errors: string[] }> => {
    const page = await (browser as Browser).newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    page.on("console", (m) => {
      if (m.type() === "error") errors.push(`console: ${m.text()}`);
    });
    await page.goto(`http://${host}:${port}/epochs`);
    await page.waitForSelector("body[data-ready=true]");
    return { page, errors };
  };
  /** Submits a control's form and waits for the page's answer to it. */
  const submit = async (page: Page, form: string): Promise<{ ok: boolean; text: string }> => {
    const before = Number((await page.locator("#control-result").getAttribute("data-run")) ?? "0");
    await page.locator(`#${form} button`).click();
    await page.locator(`#control-result[data-run="${before + 1}"]`).waitFor();
    const result = page.locator("#control-result");
    return { ok: (await result.getAttribute("class")) === "ok", text: (await result.textContent()) ?? "" };
  };
  const head = async () => Number(await h.request<string>("eth_blockNumber"));
  const epochOf = async (id: string) => BigInt((await h.request<{ current_epoch: string }>("epochs_currentEpoch", [id])).current_epoch);

  it("advances an epoch from the page: the chain's timer moves and the table follows", async () => {
    const { page, errors } = await open();
    expect(await page.locator("#advance-timer option").allTextContents()).to.deep.equal(["hour", "minute"]);
    const was = await epochOf("hour");
    await page.selectOption("#advance-timer", "hour");
    await page.fill("#advance-count", "2");
    const r = await submit(page, "advance-form");
    expect(r).to.deep.equal({ ok: true, text: `hour is at epoch #${was + 2n}` });
    expect(await epochOf("hour")).to.equal(was + 2n);
    await page.locator('tr[data-identifier="hour"] td.epoch', { hasText: new RegExp(`^${was + 2n}$`) }).waitFor();
    expect(errors).to.deep.equal([]);
    await page.close();
  });

  it("increases time and mines from the page, and mines a run of blocks", async () => {
    const { page, errors } = await open();
    const block = async () => h.request<{ number: string; timestamp: string }>("eth_getBlockByNumber", ["latest", false]);
    const before = await block();
    await page.fill("#time-seconds", "120");
    const moved = await submit(page, "time-form");
    const after = await block();
    expect(moved).to.deep.equal({ ok: true, text: `moved the clock 2m 0s and mined block ${Number(after.number)}` });
    expect(Number(after.number)).to.equal(Number(before.number) + 1);
    expect(BigInt(after.timestamp) - BigInt(before.timestamp)).to.be.gte(120n);
    await page.fill("#mine-blocks", "5");
    const mined = await submit(page, "mine-form");
    expect(await head()).to.equal(Number(after.number) + 5);
    expect(mined).to.deep.equal({ ok: true, text: `mined 5 blocks: the head is block ${Number(after.number) + 5}` });
    await page.locator(`#head[data-block="${Number(after.number) + 5}"]`).waitFor();
    // a bad count is the page's to refuse: nothing is sent
    await page.fill("#mine-blocks", "0");
    expect(await submit(page, "mine-form")).to.deep.equal({ ok: false, text: "blocks must be a whole number from 1 to 100000" });
    expect(await head()).to.equal(Number(after.number) + 5);
    expect(errors).to.deep.equal([]);
    await page.close();
  });

  it("refuses every control to a page the node does not count as this machine's, as it refuses any such client", async () => {
    const { page, errors } = await open("app.test");
    const before = await head();
    const hour = await epochOf("hour");
    expect(await submit(page, "mine-form")).to.deep.equal({ ok: false, text: "error 4100: unauthorized: hardhat_mine needs the bearer token" });
    expect(await submit(page, "time-form")).to.deep.equal({ ok: false, text: "error 4100: unauthorized: evm_increaseTime needs the bearer token" });
    expect(await submit(page, "advance-form")).to.deep.equal({ ok: false, text: "error 4100: unauthorized: epochs_advance needs the bearer token" });
    expect([await head(), await epochOf("hour")]).to.deep.equal([before, hour]);
    // it still reads: the panels and timers filled
    expect(await page.locator("#validators tbody tr").count()).to.equal(1);
    expect(errors).to.deep.equal([]);
    await page.close();
  });

  it("shows the accounts, validators, delegations, unbondings and proposals with their tallies as they stand", async () => {
    await send(h, STAKING, STAKING_ABI, "delegate", [ALICE, valoper(VALIDATOR), 5000n * E18]);
    await send(h, STAKING, STAKING_ABI, "undelegate", [ALICE, valoper(VALIDATOR), 2n * E18]);
    const proposal = Buffer.from(JSON.stringify({ messages: [], metadata: "", title: "raise the roof", summary: "s", expedited: false }));
    await send(h, GOV, GOV_ABI, "submitProposal", [ALICE, proposal, [["atest", E18]]]);
    await send(h, GOV, GOV_ABI, "vote", [ALICE, 1n, 1, ""]);
    const { page, errors } = await open();
    const row = (table: string, attr: string, value: string) => page.locator(`#${table} tbody tr[data-${attr}="${value}"]`);
    const balance = BigInt(await h.request<string>("eth_getBalance", [ALICE, "latest"]));
    const coins = (v: bigint) => `${v / E18}${v % E18 === 0n ? "" : `.${(v % E18).toString().padStart(18, "0").replace(/0+$/, "").slice(0, 6)}`} TEST`;
    expect(await row("accounts", "address", ALICE.toLowerCase()).locator("td.balance").textContent()).to.equal(coins(balance));
    const validators = await h.request<Array<{ operator_address: string; description: { moniker: string }; tokens: string }>>("cosmos_validators");
    const v = row("validators", "operator", validators[0].operator_address);
    expect(await v.locator("td").allTextContents()).to.deep.equal([
      validators[0].description.moniker,
      `${validators[0].operator_address.slice(0, 12)}…${validators[0].operator_address.slice(-6)}`,
      "bonded",
      coins(BigInt(validators[0].tokens)),
      "10.00%",
    ]);
    expect(await row("delegations", "delegator", ALICE.toLowerCase()).locator("td").allTextContents()).to.deep.equal([ALICE, validators[0].description.moniker, "4998 TEST"]);
    const unbonding = await row("unbondings", "delegator", ALICE.toLowerCase()).locator("td").allTextContents();
    expect(unbonding.slice(0, 3)).to.deep.equal([ALICE, validators[0].description.moniker, "2 TEST"]);
    expect(unbonding[3]).to.match(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ \(in (\d+d )?\d+h \d+m \d+s\)$/);
    // in its voting period: ALICE's 4998 yes, as the tally stands (the final result is still empty)
    expect(await row("proposals", "id", "1").locator("td").allTextContents()).to.deep.include.members([
      "1",
      "raise the roof",
      "voting period",
      "yes 4998 TEST · abstain 0 TEST · no 0 TEST · veto 0 TEST",
    ]);
    if (process.env.EPOCHS_PAGE_SCREENSHOT !== undefined) writeFileSync(path.resolve(process.env.EPOCHS_PAGE_SCREENSHOT), await page.screenshot({ fullPage: true }));
    expect(errors).to.deep.equal([]);
    await page.close();
  });

  it("folds a time jump's catch-up ticks into one run, and filters the timeline by timer and kind", async () => {
    // ten minutes at once: the minute timer catches up one tick a block
    await h.request("evm_increaseTime", [600]);
    await h.request("hardhat_mine", ["0xc"]);
    const { page, errors } = await open();
    const run = page.locator("#events > li.run", { hasText: /minute #\d+–#\d+/ }).first();
    const summary = (await run.locator("summary").textContent()) ?? "";
    const [, from, to, lo, hi] = /^blocks (\d+)–(\d+) · \d+ alike .* minute #(\d+)–#(\d+)/.exec(summary) ?? [];
    // one block a tick, every tick in the run
    expect(Number(to) - Number(from)).to.equal(Number(hi) - Number(lo));
    expect(Number(hi) - Number(lo)).to.be.gte(7);
    expect(await run.locator("details").getAttribute("open")).to.equal(null);
    await run.locator("summary").click();
    expect(await run.locator("li.block").count()).to.equal(Number(to) - Number(from) + 1);
    // x/mint's events every block fold too; hide them and every timer but the hour
    const kinds = await page.locator("#filter-kinds input").evaluateAll((els) => els.map((e) => (e as unknown as { value: string }).value));
    expect(kinds).to.include.members(["cosmos.epochs.v1beta1.EventEpochStart", "cosmos.epochs.v1beta1.EventEpochEnd", "mint"]);
    for (const k of kinds.filter((x) => !x.startsWith("cosmos.epochs."))) await page.locator(`#filter-kinds input[value="${k}"]`).uncheck();
    await page.locator('#filter-timers input[value="minute"]').uncheck();
    await page.locator("#events li.run, #events > li.block").first().waitFor();
    const shown = await page.locator("#events .event").evaluateAll((els) => els.map((e) => [e.className, (e as unknown as { dataset: Record<string, string> }).dataset.identifier ?? ""]));
    expect(shown.length).to.be.greaterThan(0);
    expect(shown.every(([cls, id]) => cls.startsWith("event cosmos.epochs.") && id === "hour")).to.equal(true);
    // and back
    await page.locator('#filter-timers input[value="minute"]').check();
    await page.locator("#events .event[data-identifier=minute]").first().waitFor({ state: "attached" });
    expect(errors).to.deep.equal([]);
    await page.close();
  });
});
