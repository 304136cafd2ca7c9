/**
 * The epochs page's script (src/app/rest/epochs-page.ts serves it as /epochs/page.js): the connection
 * to the node (the same port's WebSocket), the timers, the hook contracts and the timeline, with the
 * console's controls and panels (src/app/rest/epochs-page-console.ts) in the same closure. Plain
 * browser JavaScript in a string, so the package serves it without a build step; it builds every
 * element with textContent (nothing the chain answers is parsed as HTML).
 */
import { CONSOLE_SCRIPT } from "./epochs-page-console";

const CONNECTION = `
  const $ = (id) => document.getElementById(id);
  const url = (location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/";
  const ws = new WebSocket(url);
  let nextId = 1;
  const waiting = new Map();
  const handlers = new Map();
  let chainTime = 0n;
  let infos = [];
  let loaded = false;

  const call = (method, params = []) => new Promise((resolve, reject) => {
    const id = nextId++;
    waiting.set(id, { resolve, reject });
    ws.send(JSON.stringify({ jsonrpc: "2.0", id, method, params }));
  });
  const subscribe = async (params, fn) => handlers.set(await call("eth_subscribe", params), fn);
  /** Runs fn once at a time: calls made while it runs fold into one more run after it. */
  const coalesce = (fn) => {
    let busy = false, again = false;
    return async () => {
      if (busy) { again = true; return; }
      busy = true;
      try { do { again = false; await fn(); } while (again); } catch (err) { show(err); } finally { busy = false; }
    };
  };

  const seconds = (iso) => BigInt(Math.floor(Date.parse(iso) / 1000));
  const duration = (d) => BigInt(String(d).replace(/s$/, "").split(".")[0]);
  const when = (s) => new Date(Number(s) * 1000).toISOString().replace(".000Z", "Z");
  const span = (s) => {
    const neg = s < 0n; let v = neg ? -s : s;
    const d = v / 86400n, h = (v % 86400n) / 3600n, m = (v % 3600n) / 60n, x = v % 60n;
    const out = (d > 0n ? d + "d " : "") + (d > 0n || h > 0n ? h + "h " : "") + (d > 0n || h > 0n || m > 0n ? m + "m " : "") + x + "s";
    return neg ? "due (" + out + " ago)" : out;
  };
  const el = (tag, text, cls) => { const e = document.createElement(tag); if (text !== undefined) e.textContent = text; if (cls) e.className = cls; return e; };
  const cell = (tr, text, cls) => tr.append(el("td", text, cls));
  /** Fills a table's body with rows, or one row saying there is none. */
  const fill = (table, rows, none) => {
    const body = $(table).tBodies[0];
    if (rows.length > 0) { body.replaceChildren(...rows); return; }
    const tr = document.createElement("tr");
    const td = el("td", none, "none");
    td.colSpan = $(table).tHead.rows[0].cells.length;
    tr.append(td);
    body.replaceChildren(tr);
  };
  function show(err) { $("status").textContent = "error: " + err.message; }
`;

const TIMERS = `
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
      timers.add(e.identifier);
    }
    $("chain-time").textContent = chainTime === 0n ? "" : "chain time " + when(chainTime);
    timersChanged(infos.map((e) => e.identifier));
  }

  const refresh = coalesce(async () => {
    const [res, head] = await Promise.all([call("epochs_epochInfos"), call("eth_getBlockByNumber", ["latest", false])]);
    infos = res.epochs;
    chainTime = BigInt(head.timestamp);
    $("head").textContent = "block " + Number(head.number);
    $("head").dataset.block = String(Number(head.number));
    renderEpochs();
  });

  /**
   * Hook contracts by lowercase address (events carry that form): their name and checksummed
   * address, from epochs_hookContracts. A name once known stays: after a recompile the project's
   * compilations may no longer know the deployed code, which has not changed.
   */
  const known = new Map();
  const label = (address) => { const k = known.get(String(address).toLowerCase()); return k === undefined ? address : (k.name ? k.name + " " : "") + k.address; };

  const refreshHooks = coalesce(async () => {
    const hooks = await call("epochs_hookContracts");
    for (const h of hooks) {
      const was = known.get(h.address.toLowerCase());
      known.set(h.address.toLowerCase(), h.name === null && was !== undefined && was.name ? { address: h.address, name: was.name } : h);
    }
    $("hooks").replaceChildren(...hooks.map((h) => {
      const k = known.get(h.address.toLowerCase());
      const li = document.createElement("li");
      if (k.name) li.append(el("span", k.name + " ", "name"));
      li.append(el("code", h.address));
      return li;
    }));
    $("no-hooks").hidden = hooks.length > 0;
  });
`;

const TIMELINE = `
  /** Each block's begin/end-block events, by height: the newest MAX_BLOCKS kept. */
  const timeline = new Map();
  const MAX_BLOCKS = 2000;
  /** Runs of at least FOLD_AT consecutive blocks with alike events (a time jump's catch-up ticks, a module's work every block) fold into one entry. */
  const FOLD_AT = 3;
  const timers = new Set(), kinds = new Set(), hiddenTimers = new Set(), hiddenKinds = new Set();

  function addEvent(ev) {
    const attr = Object.fromEntries((ev.attributes || []).map((a) => [a.key, a.value]));
    const n = Number(ev.blockNumber);
    if (!timeline.has(n)) {
      timeline.set(n, []);
      if (timeline.size > MAX_BLOCKS) timeline.delete(Math.min(...timeline.keys()));
    }
    // the SDK's typed epoch events carry no identifier: the node names their timer beside them
    const timer = attr.identifier ?? ev.timer;
    timeline.get(n).push({ phase: ev.phase, type: ev.type, attr, timer });
    if (timer !== undefined) timers.add(timer);
    kinds.add(ev.type);
    scheduleRender();
  }

  const epochNumber = (a) => String(a.epoch_number).replace(/"/g, "");
  function eventNode(e) {
    const a = e.attr;
    const div = el("div", undefined, "event " + e.type);
    if (e.timer !== undefined) div.dataset.identifier = e.timer;
    const failed = e.type === "epoch_hook_failed";
    let text = e.phase.replace("_", "-") + " · " + e.type;
    if (e.timer !== undefined) text += " · " + e.timer;
    if (a.epoch_number !== undefined) text += " #" + epochNumber(a);
    if (a.hook !== undefined) text += " · " + a.hook + " on " + label(a.address);
    if (a.gas_used !== undefined) text += " · gas " + a.gas_used;
    div.append(el("div", text, e.type === "epoch_hook" ? "ok" : failed ? "failed" : ""));
    if (failed) div.append(el("pre", [a.error || a.reason || "", a.stack || ""].filter(Boolean).join("\\n")));
    return div;
  }
  function blockNode(b) {
    const li = el("li", undefined, "block");
    li.dataset.block = String(b.n);
    li.append(el("div", "block " + b.n, "block-head"), ...b.evs.map(eventNode));
    return li;
  }
  /** What makes blocks alike: the same events of the same timers and hooks, in the same order. */
  const shape = (evs) => evs.map((e) => [e.phase, e.type, e.timer, e.attr.hook, e.attr.address].join(",")).join("|");
  function runNode(run, open) {
    const first = run[run.length - 1], last = run[0];
    const li = el("li", undefined, "run");
    li.dataset.from = String(first.n);
    li.dataset.to = String(last.n);
    const ranges = new Map();
    for (const b of run) for (const e of b.evs) {
      if (!/(^epoch_start|EventEpochStart)$/.test(e.type) || e.attr.epoch_number === undefined || e.timer === undefined) continue;
      const num = Number(epochNumber(e.attr)), r = ranges.get(e.timer);
      ranges.set(e.timer, r === undefined ? [num, num] : [Math.min(r[0], num), Math.max(r[1], num)]);
    }
    const ticks = [...ranges].map(([id, r]) => id + " #" + r[0] + "–#" + r[1]);
    const summary = el("summary", "blocks " + first.n + "–" + last.n + " · " + run.length + " alike (" + [...new Set(first.evs.map((e) => e.type))].join(", ") + ")" + (ticks.length > 0 ? " · " + ticks.join(", ") : ""));
    const failures = run.reduce((n, b) => n + b.evs.filter((e) => e.type === "epoch_hook_failed").length, 0);
    if (failures > 0) summary.append(el("span", " · " + failures + " hook failures", "failed"));
    const details = document.createElement("details");
    details.open = open;
    const inner = document.createElement("ol");
    inner.append(...run.map(blockNode));
    details.append(summary, inner);
    li.append(details);
    return li;
  }

  let renderQueued = false;
  function scheduleRender() {
    if (renderQueued) return;
    renderQueued = true;
    setTimeout(() => { renderQueued = false; renderTimeline(); }, 0);
  }
  function renderTimeline() {
    const visible = (e) => !hiddenKinds.has(e.type) && (e.timer === undefined || !hiddenTimers.has(e.timer));
    const items = [];
    for (const n of [...timeline.keys()].sort((a, b) => b - a)) {
      const evs = timeline.get(n).filter(visible);
      if (evs.length > 0) items.push({ n, evs });
    }
    // the runs a user opened stay open
    const opened = new Set([...document.querySelectorAll("#events li.run > details[open]")].map((d) => d.parentElement.dataset.from));
    const out = [];
    for (let i = 0; i < items.length;) {
      const s = shape(items[i].evs);
      let j = i + 1;
      while (j < items.length && items[j].n === items[j - 1].n - 1 && shape(items[j].evs) === s) j++;
      if (j - i >= FOLD_AT) out.push(runNode(items.slice(i, j), opened.has(String(items[j - 1].n))));
      else for (let k = i; k < j; k++) out.push(blockNode(items[k]));
      i = j;
    }
    $("events").replaceChildren(...out);
    renderFilters();
    const none = $("no-events");
    none.hidden = items.length > 0;
    if (loaded) none.textContent = timeline.size === 0 ? "No begin- or end-block event in the last " + HISTORY + " blocks; new ones appear here as blocks are made." : "The filters hide every event.";
  }

  /** One checkbox per timer and per kind of event; unticked ones are hidden from the timeline. */
  let filtersShown = "";
  function renderFilters() {
    const key = [...timers].sort().join(",") + "/" + [...kinds].sort().join(",");
    if (key === filtersShown) return;
    filtersShown = key;
    const checkbox = (group, value, hidden) => {
      const box = el("label");
      const input = document.createElement("input");
      input.type = "checkbox";
      input.dataset.filter = group;
      input.value = value;
      input.checked = !hidden.has(value);
      box.append(input, " " + value);
      return box;
    };
    $("filter-timers").replaceChildren(el("legend", "timers"), ...[...timers].sort().map((t) => checkbox("timer", t, hiddenTimers)));
    $("filter-kinds").replaceChildren(el("legend", "kinds"), ...[...kinds].sort().map((k) => checkbox("kind", k, hiddenKinds)));
  }
  $("filters").addEventListener("change", (ev) => {
    const input = ev.target;
    const set = input.dataset.filter === "timer" ? hiddenTimers : hiddenKinds;
    if (input.checked) set.delete(input.value); else set.add(input.value);
    scheduleRender();
  });

  /** The last HISTORY blocks' events, into the timeline. */
  const HISTORY = 100;
  async function loadHistory() {
    const head = Number(await call("eth_blockNumber"));
    const heights = [];
    for (let n = Math.max(0, head - HISTORY + 1); n <= head; n++) heights.push(n);
    const blocks = await Promise.all(heights.map((n) => call("epochs_blockEvents", ["0x" + n.toString(16)]).catch(() => null)));
    for (const b of blocks) {
      if (!b) continue;
      for (const [phase, list] of [["begin_block", b.begin_block_events], ["end_block", b.end_block_events]]) {
        for (const ev of list) addEvent({ blockNumber: b.height, phase, type: ev.type, attributes: ev.attributes, timer: ev.timer });
      }
    }
    loaded = true;
    renderTimeline();
  }
`;

const START = `
  ws.addEventListener("message", (m) => {
    const msg = JSON.parse(m.data);
    if (msg.method === "eth_subscription") { handlers.get(msg.params.subscription)?.(msg.params.result); return; }
    const w = waiting.get(msg.id);
    if (w === undefined) return;
    waiting.delete(msg.id);
    if (msg.error) w.reject(Object.assign(new Error(msg.error.message), { code: msg.error.code })); else w.resolve(msg.result);
  });
  ws.addEventListener("open", async () => {
    try {
      await refresh();
      await refreshHooks();
      await loadHistory();
      await startConsole();
      await subscribe(["epochs"], (ev) => addEvent(ev));
      await subscribe(["newHeads"], () => { refresh(); refreshHooks(); refreshPanels(); });
      $("status").textContent = "live over " + url;
      document.body.dataset.ready = "true";
    } catch (err) { show(err); }
  });
  ws.addEventListener("close", () => { $("status").textContent = "disconnected from " + url + " (reload to reconnect)"; });
`;

/** The whole script: one closure over the connection, so nothing leaks into the page's globals. */
export const PAGE_SCRIPT = `"use strict";
(() => {${CONNECTION}${TIMERS}${TIMELINE}${CONSOLE_SCRIPT}${START}})();
`;
