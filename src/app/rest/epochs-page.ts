/**
 * The epochs page: `GET /epochs` on the JSON-RPC port (docs/explorer.md). A static page and its
 * script, kept here as strings so the package serves them without a build step or asset files. The
 * script talks to the node over the same port's WebSocket with read-class methods only
 * (epochs_epochInfos, epochs_hookContracts, epochs_blockEvents, eth_getBlockByNumber,
 * eth_blockNumber) and the `epochs` and `newHeads` subscriptions, so it needs no token. It shows every
 * epoch (number, start, the countdown to its next tick in chain time), the registered hooks by
 * contract name, and a timeline of the blocks with epoch events — the recent ones on load, then each
 * as it is made — with each tick and hook call in its block, failures (reason, Solidity frames) in place.
 */
import type { RestRouter } from "../../rpc/transport/rest-router";

/** What the page may load and where it may connect: itself only. */
const CSP = "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self' ws: wss:; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Epochs · hardhat-epochs</title>
<link rel="stylesheet" href="/epochs/page.css">
<script src="/epochs/page.js" defer></script>
</head>
<body>
<header>
  <h1>Epochs</h1>
  <p id="status" class="muted">connecting…</p>
</header>
<main>
  <section>
    <h2>Timers <span class="muted" id="chain-time"></span></h2>
    <table id="epochs">
      <thead><tr><th>identifier</th><th>epoch</th><th>started</th><th>duration</th><th>next tick</th><th>in (chain time)</th></tr></thead>
      <tbody></tbody>
    </table>
  </section>
  <section>
    <h2>Hook contracts</h2>
    <ol id="hooks"></ol>
    <p id="no-hooks" class="muted" hidden>No contract is registered (IEpochs.registerHooks()).</p>
  </section>
  <section>
    <h2>Timeline <span class="muted">blocks with epoch events, newest first</span></h2>
    <ol id="events"></ol>
    <p id="no-events" class="muted">loading the recent blocks…</p>
  </section>
</main>
</body>
</html>
`;

const CSS = `
body { font: 14px/1.45 system-ui, sans-serif; margin: 0; color: #1d232a; background: #f6f7f9; }
header { background: #1d232a; color: #fff; padding: 12px 24px; display: flex; align-items: baseline; gap: 16px; }
header h1 { margin: 0; font-size: 20px; }
header .muted { color: #b5bdc6; }
main { padding: 8px 24px 32px; max-width: 1100px; }
h2 { font-size: 16px; margin: 24px 0 8px; }
table { border-collapse: collapse; width: 100%; background: #fff; }
th, td { text-align: left; padding: 6px 10px; border-bottom: 1px solid #e3e6ea; }
th { font-weight: 600; background: #eef0f3; }
td.num { font-variant-numeric: tabular-nums; }
.muted { color: #6b7480; font-weight: normal; }
ol { background: #fff; margin: 0; padding: 8px 8px 8px 40px; }
ol:empty { display: none; }
li { padding: 4px 0; border-bottom: 1px solid #eef0f3; }
li:last-child { border-bottom: 0; }
#events { list-style: none; padding-left: 8px; }
li.block .block-head { font-weight: 600; }
li.block .event { margin-left: 16px; }
.name { font-weight: 600; }
code { font: 12px ui-monospace, monospace; }
.failed { color: #b3261e; }
.ok { color: #1a7f37; }
pre { margin: 4px 0 0; font: 12px ui-monospace, monospace; white-space: pre-wrap; color: #b3261e; }
`;

const JS = `"use strict";
(() => {
  const $ = (id) => document.getElementById(id);
  const url = (location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/";
  const ws = new WebSocket(url);
  let nextId = 1;
  const waiting = new Map();
  const handlers = new Map();
  let chainTime = 0n;
  let infos = [];
  let events = 0;

  const call = (method, params = []) => new Promise((resolve, reject) => {
    const id = nextId++;
    waiting.set(id, { resolve, reject });
    ws.send(JSON.stringify({ jsonrpc: "2.0", id, method, params }));
  });
  const subscribe = async (params, fn) => handlers.set(await call("eth_subscribe", params), fn);

  const seconds = (iso) => BigInt(Math.floor(Date.parse(iso) / 1000));
  const duration = (d) => BigInt(String(d).replace(/s$/, "").split(".")[0]);
  const when = (s) => new Date(Number(s) * 1000).toISOString().replace(".000Z", "Z");
  const span = (s) => {
    const neg = s < 0n; let v = neg ? -s : s;
    const d = v / 86400n, h = (v % 86400n) / 3600n, m = (v % 3600n) / 60n, x = v % 60n;
    const out = (d > 0n ? d + "d " : "") + (d > 0n || h > 0n ? h + "h " : "") + (d > 0n || h > 0n || m > 0n ? m + "m " : "") + x + "s";
    return neg ? "due (" + out + " ago)" : out;
  };
  const cell = (tr, text, cls) => { const td = document.createElement("td"); td.textContent = text; if (cls) td.className = cls; tr.append(td); };

  function renderEpochs() {
    const body = $("epochs").tBodies[0];
    body.replaceChildren();
    for (const e of infos) {
      const tr = document.createElement("tr");
      tr.dataset.identifier = e.identifier;
      const started = e.epoch_counting_started;
      const next = started ? seconds(e.current_epoch_start_time) + duration(e.duration) : seconds(e.start_time);
      cell(tr, e.identifier);
      cell(tr, started ? e.current_epoch : "not started", "num epoch");
      cell(tr, started ? e.current_epoch_start_time + " (block " + e.current_epoch_start_height + ")" : "starts " + e.start_time);
      cell(tr, e.duration, "num");
      cell(tr, when(next), "num");
      cell(tr, chainTime === 0n ? "" : span(next - chainTime), "num countdown");
      body.append(tr);
    }
    $("chain-time").textContent = chainTime === 0n ? "" : "chain time " + when(chainTime);
  }

  async function refresh() {
    const [res, head] = await Promise.all([call("epochs_epochInfos"), call("eth_getBlockByNumber", ["latest", false])]);
    infos = res.epochs;
    chainTime = BigInt(head.timestamp);
    renderEpochs();
  }

  /** Hook contracts by lowercase address (events carry that form): their name and checksummed address, from epochs_hookContracts. */
  const known = new Map();
  const label = (address) => { const k = known.get(String(address).toLowerCase()); return k === undefined ? address : (k.name ? k.name + " " : "") + k.address; };

  async function refreshHooks() {
    const hooks = await call("epochs_hookContracts");
    for (const h of hooks) known.set(h.address.toLowerCase(), h);
    $("hooks").replaceChildren(...hooks.map((h) => {
      const li = document.createElement("li");
      if (h.name) { const b = document.createElement("span"); b.className = "name"; b.textContent = h.name + " "; li.append(b); }
      const c = document.createElement("code"); c.textContent = h.address; li.append(c);
      return li;
    }));
    $("no-hooks").hidden = hooks.length > 0;
  }

  /** The timeline's entry of block n (made in its place, newest first). */
  function blockItem(n) {
    const list = $("events");
    let li = list.querySelector('li[data-block="' + n + '"]');
    if (li) return li;
    li = document.createElement("li");
    li.className = "block";
    li.dataset.block = String(n);
    const head = document.createElement("div");
    head.className = "block-head";
    head.textContent = "block " + n;
    li.append(head);
    list.insertBefore(li, [...list.children].find((c) => Number(c.dataset.block) < n) || null);
    while (list.children.length > 100) list.lastChild.remove();
    $("no-events").hidden = true;
    return li;
  }

  function addEvent(ev) {
    const attr = Object.fromEntries((ev.attributes || []).map((a) => [a.key, a.value]));
    const div = document.createElement("div");
    div.className = "event " + ev.type;
    const failed = ev.type === "epoch_hook_failed";
    let text = ev.phase.replace("_", "-") + " · " + ev.type;
    if (attr.identifier !== undefined) text += " · " + attr.identifier;
    if (attr.epoch_number !== undefined) text += " #" + attr.epoch_number.replace(/"/g, "");
    if (attr.hook !== undefined) text += " · " + attr.hook + " on " + label(attr.address);
    if (attr.gas_used !== undefined) text += " · gas " + attr.gas_used;
    const line = document.createElement("div");
    line.textContent = text;
    if (ev.type === "epoch_hook") line.className = "ok";
    if (failed) line.className = "failed";
    div.append(line);
    if (failed) {
      const pre = document.createElement("pre");
      pre.textContent = [attr.error || attr.reason || "", attr.stack || ""].filter(Boolean).join("\\n");
      div.append(pre);
    }
    blockItem(Number(ev.blockNumber)).append(div);
    events++;
  }

  /** The last HISTORY blocks' epoch events, oldest first into the timeline. */
  const HISTORY = 100;
  async function loadHistory() {
    const head = Number(await call("eth_blockNumber"));
    const heights = [];
    for (let n = Math.max(0, head - HISTORY + 1); n <= head; n++) heights.push(n);
    const blocks = await Promise.all(heights.map((n) => call("epochs_blockEvents", ["0x" + n.toString(16)]).catch(() => null)));
    for (const b of blocks) {
      if (!b) continue;
      for (const [phase, list] of [["begin_block", b.begin_block_events], ["end_block", b.end_block_events]]) {
        for (const ev of list) addEvent({ blockNumber: b.height, phase, type: ev.type, attributes: ev.attributes });
      }
    }
    if (events === 0) $("no-events").textContent = "No epoch event in the last " + HISTORY + " blocks; new ones appear here as blocks are made.";
  }

  ws.addEventListener("message", (m) => {
    const msg = JSON.parse(m.data);
    if (msg.method === "eth_subscription") { handlers.get(msg.params.subscription)?.(msg.params.result); return; }
    const w = waiting.get(msg.id);
    if (w === undefined) return;
    waiting.delete(msg.id);
    if (msg.error) w.reject(new Error(msg.error.message)); else w.resolve(msg.result);
  });
  ws.addEventListener("open", async () => {
    try {
      await refresh();
      await refreshHooks();
      await loadHistory();
      await subscribe(["epochs"], (ev) => addEvent(ev));
      await subscribe(["newHeads"], () => { refresh().catch(show); refreshHooks().catch(show); });
      $("status").textContent = "live over " + url;
      document.body.dataset.ready = "true";
    } catch (err) { show(err); }
  });
  ws.addEventListener("close", () => { $("status").textContent = "disconnected from " + url + " (reload to reconnect)"; });
  function show(err) { $("status").textContent = "error: " + err.message; }
})();
`;

/** What GET / answers: this is a JSON-RPC endpoint, and the epochs page is at /epochs. */
const INDEX = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>hardhat-epochs node</title><link rel="stylesheet" href="/epochs/page.css"></head>
<body>
  <h1>hardhat-epochs node</h1>
  <p>JSON-RPC is served here: POST requests to this address (HTTP and WebSocket).</p>
  <p>The chain's epochs, hooks and events: <a href="/epochs">/epochs</a>.</p>
</body>
</html>
`;

/** Mounts the page on the REST router of the JSON-RPC port. */
export function mountEpochsPage(router: RestRouter): void {
  const page = (contentType: string, body: string) => () => ({ status: 200, body, contentType, headers: { "content-security-policy": CSP, "x-content-type-options": "nosniff", "cache-control": "no-cache" } });
  router.get("/epochs", page("text/html; charset=utf-8", HTML));
  // a browser opening the node's address: where the page is (JSON-RPC stays POST on "/")
  router.get("/", page("text/html; charset=utf-8", INDEX));
  // browsers ask for an icon with every page: none, without a 404 in the console
  router.get("/favicon.ico", () => ({ status: 204, body: "", contentType: "image/x-icon", headers: { "cache-control": "max-age=86400" } }));
  router.get("/epochs/page.js", page("text/javascript; charset=utf-8", JS));
  router.get("/epochs/page.css", page("text/css; charset=utf-8", CSS));
}
