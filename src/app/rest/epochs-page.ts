/**
 * The epochs page: `GET /epochs` on the JSON-RPC port (docs/explorer.md), the chain's console. A
 * static page, its style and its script, kept as strings so the package serves them without a build
 * step or asset files (the script: src/app/rest/epochs-page-script.ts and -console.ts). The script
 * talks to the node over the same port's WebSocket only. It shows every epoch (number, start, the
 * countdown to its next tick in chain time), the registered hooks by contract name, a timeline of the
 * blocks with epoch and module events (the recent ones on load, then each as it is made; filtered by
 * timer and kind, runs of alike blocks folded), panels over the head's state (accounts, validators,
 * delegations, unbondings, proposals with their tallies) and controls that advance an epoch, move
 * time and mine — `dev` methods the node answers under its access rules, as for any client.
 */
import type { RestRouter } from "../../rpc/transport/rest-router";
import { PAGE_SCRIPT } from "./epochs-page-script";
import { PAGE_CSS } from "./epochs-page-style";

/** What the page may load and where it may connect: itself only. */
const CSP = "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self' ws: wss:; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const table = (id: string, heads: string[]): string => `<table id="${id}"><thead><tr>${heads.map((h) => `<th>${h}</th>`).join("")}</tr></thead><tbody></tbody></table>`;

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
  <span id="head"></span>
  <p id="status" class="muted">connecting…</p>
</header>
<main>
  <section>
    <h2>Timers <span class="muted" id="chain-time"></span></h2>
    ${table("epochs", ["identifier", "epoch", "started", "duration", "next tick", "in (chain time)"])}
  </section>
  <section id="controls">
    <h2>Controls <span class="muted">dev methods: open to pages on this machine, else they need the node's token</span></h2>
    <form id="advance-form" novalidate><label>Advance <select id="advance-timer" name="timer"></select></label> <label>× <input id="advance-count" name="count" type="number" min="1" max="1000" value="1"></label> <button type="submit">Advance epoch</button></form>
    <form id="time-form" novalidate><label>Increase time by <input id="time-seconds" name="seconds" type="number" min="1" value="3600"> s</label> <button type="submit">Increase time and mine</button></form>
    <form id="mine-form" novalidate><label>Mine <input id="mine-blocks" name="blocks" type="number" min="1" max="100000" value="1"> blocks</label> <button type="submit">Mine</button></form>
    <p id="control-result" class="muted"></p>
  </section>
  <section>
    <h2>Hook contracts</h2>
    <ol id="hooks"></ol>
    <p id="no-hooks" class="muted" hidden>No contract is registered (IEpochs.registerHooks()).</p>
  </section>
  <section>
    <h2>Accounts <span class="muted">the node's keys, at the head</span></h2>
    ${table("accounts", ["address", "balance", "other coins"])}
  </section>
  <div id="staking-panels" class="panels">
    <section><h2>Validators</h2>${table("validators", ["moniker", "operator", "status", "tokens", "commission"])}</section>
    <section><h2>Delegations</h2>${table("delegations", ["delegator", "validator", "amount"])}</section>
    <section><h2>Unbondings</h2>${table("unbondings", ["delegator", "validator", "amount", "completes"])}</section>
  </div>
  <section id="proposals-panel">
    <h2>Proposals <span class="muted">tallied as they stand while voting</span></h2>
    ${table("proposals", ["id", "title", "status", "tally", "ends"])}
  </section>
  <section>
    <h2>Timeline <span class="muted">blocks with epoch and module events, newest first</span></h2>
    <div id="filters"><fieldset id="filter-timers"></fieldset><fieldset id="filter-kinds"></fieldset></div>
    <ol id="events"></ol>
    <p id="no-events" class="muted">loading the recent blocks…</p>
  </section>
</main>
</body>
</html>
`;

/** What GET / answers: this is a JSON-RPC endpoint, and the epochs page is at /epochs. */
const INDEX = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>hardhat-epochs node</title><link rel="stylesheet" href="/epochs/page.css"></head>
<body>
  <h1>hardhat-epochs node</h1>
  <p>JSON-RPC is served here: POST requests to this address (HTTP and WebSocket).</p>
  <p>The chain's epochs, hooks, events, accounts and Cosmos state: <a href="/epochs">/epochs</a>.</p>
</body>
</html>
`;

/** Mounts the page on the REST router of the JSON-RPC port. */
export function mountEpochsPage(router: RestRouter): void {
  const page = (contentType: string, body: string) => () => ({
    status: 200,
    body,
    contentType,
    headers: { "content-security-policy": CSP, "x-content-type-options": "nosniff", "cache-control": "no-cache" },
  });
  router.get("/epochs", page("text/html; charset=utf-8", HTML));
  // a browser opening the node's address: where the page is (JSON-RPC stays POST on "/")
  router.get("/", page("text/html; charset=utf-8", INDEX));
  // browsers ask for an icon with every page: none, without a 404 in the console
  router.get("/favicon.ico", () => ({ status: 204, body: "", contentType: "image/x-icon", headers: { "cache-control": "max-age=86400" } }));
  router.get("/epochs/page.js", page("text/javascript; charset=utf-8", PAGE_SCRIPT));
  router.get("/epochs/page.css", page("text/css; charset=utf-8", PAGE_CSS));
}
