/**
 * The epochs page as the chain's console (part of the script src/app/rest/epochs-page-script.ts
 * builds): controls for what a page on this machine may already do over JSON-RPC — advance an epoch
 * (`epochs_advance`), move time and mine (`evm_increaseTime`, `evm_mine`), mine a run of blocks
 * (`hardhat_mine`) — and panels over the head's state: accounts and balances, validators,
 * delegations, unbondings, proposals with their tallies. The controls are `dev` methods: the node
 * answers them under its access rules (src/rpc/access.ts) as it would any client's, and the page
 * shows its refusal as given. The panels read `read` methods only (the `cosmos_*` reads answer as
 * the SDK's REST gateway does).
 */
export const CONSOLE_SCRIPT = `
  /** The chain's coin (its bank metadata): amounts read "1.5 TEST". */
  const coin = { symbol: "", decimals: 18 };
  const amount = (v) => {
    const x = BigInt(v), unit = 10n ** BigInt(coin.decimals);
    const frac = (x % unit).toString().padStart(coin.decimals, "0").replace(/0+$/, "").slice(0, 6);
    return (x / unit).toString() + (frac ? "." + frac : "") + (coin.symbol ? " " + coin.symbol : "");
  };
  const status = (s) => String(s).replace(/^(BOND_STATUS_|PROPOSAL_STATUS_)/, "").toLowerCase().replace(/_/g, " ");
  const short = (a) => a.length > 20 ? a.slice(0, 12) + "…" + a.slice(-6) : a;

  // ---- controls
  let controlsRun = 0;
  function control(form, run) {
    $(form).addEventListener("submit", async (ev) => {
      ev.preventDefault();
      const out = $("control-result");
      const buttons = [...document.querySelectorAll("#controls button")];
      for (const b of buttons) b.disabled = true;
      out.className = "muted";
      out.textContent = "working…";
      try {
        out.textContent = await run();
        out.className = "ok";
      } catch (err) {
        out.textContent = (err.code !== undefined ? "error " + err.code + ": " : "") + err.message;
        out.className = "failed";
      } finally {
        for (const b of buttons) b.disabled = false;
        out.dataset.run = String(++controlsRun);
      }
    });
  }
  const whole = (id, max) => {
    const v = Number($(id).value);
    if (!Number.isInteger(v) || v < 1 || v > max) throw new Error($(id).name + " must be a whole number from 1 to " + max);
    return v;
  };
  control("advance-form", async () => {
    const id = $("advance-timer").value;
    const r = await call("epochs_advance", [id, whole("advance-count", 1000)]);
    return id + " is at epoch #" + r.current_epoch;
  });
  control("time-form", async () => {
    const s = whole("time-seconds", 10 ** 9);
    await call("evm_increaseTime", [s]);
    await call("evm_mine");
    return "moved the clock " + span(BigInt(s)) + " and mined block " + Number(await call("eth_blockNumber"));
  });
  control("mine-form", async () => {
    const n = whole("mine-blocks", 100000);
    await call("hardhat_mine", ["0x" + n.toString(16)]);
    return "mined " + n + (n === 1 ? " block" : " blocks") + ": the head is block " + Number(await call("eth_blockNumber"));
  });
  /** The timers the advance control offers, kept in step with the epochs table. */
  function timersChanged(ids) {
    const select = $("advance-timer");
    if ([...select.options].map((o) => o.value).join(",") === ids.join(",")) return;
    const chosen = select.value;
    select.replaceChildren(...ids.map((id) => { const o = el("option", id); o.value = id; return o; }));
    if (ids.includes(chosen)) select.value = chosen;
  }

  // ---- panels
  const PANEL_ACCOUNTS = 20;
  const present = { staking: true, gov: true };
  const refreshPanels = coalesce(async () => {
    const accounts = (await call("eth_accounts")).slice(0, PANEL_ACCOUNTS);
    const balances = await Promise.all(accounts.map((a) => call("eth_getBalance", [a, "latest"])));
    const coins = await Promise.all(accounts.map((a) => present.staking ? call("cosmos_balances", [a]).catch(() => []) : []));
    fill("accounts", accounts.map((a, i) => {
      const tr = document.createElement("tr");
      tr.dataset.address = a.toLowerCase();
      cell(tr, a, "addr");
      cell(tr, amount(balances[i]), "num balance");
      cell(tr, coins[i].filter((c) => c.denom !== coin.denom).map((c) => c.amount + " " + c.denom).join(", "), "coins");
      return tr;
    }), "No account: the node holds no keys (eth_accounts is empty).");
    if (present.staking) await stakingPanels(accounts);
    if (present.gov) await proposalsPanel();
  });

  async function stakingPanels(accounts) {
    let validators;
    try { validators = await call("cosmos_validators"); } catch { present.staking = false; $("staking-panels").hidden = true; return; }
    const moniker = new Map(validators.map((v) => [v.operator_address, v.description.moniker || short(v.operator_address)]));
    fill("validators", validators.map((v) => {
      const tr = document.createElement("tr");
      tr.dataset.operator = v.operator_address;
      cell(tr, v.description.moniker, "name");
      cell(tr, short(v.operator_address), "addr");
      cell(tr, status(v.status) + (v.jailed ? ", jailed" : ""), "status");
      cell(tr, amount(v.tokens), "num tokens");
      cell(tr, (Number(v.commission.commission_rates.rate) * 100).toFixed(2) + "%", "num");
      return tr;
    }), "No validator.");
    const [delegations, unbondings] = await Promise.all([
      Promise.all(accounts.map((a) => call("cosmos_delegations", [a]))),
      Promise.all(accounts.map((a) => call("cosmos_unbondings", [a]))),
    ]);
    fill("delegations", accounts.flatMap((a, i) => delegations[i].map((d) => {
      const tr = document.createElement("tr");
      tr.dataset.delegator = a.toLowerCase();
      cell(tr, a, "addr");
      cell(tr, moniker.get(d.delegation.validator_address) ?? d.delegation.validator_address, "validator");
      cell(tr, amount(d.balance.amount), "num amount");
      return tr;
    })), "No delegation from these accounts.");
    fill("unbondings", accounts.flatMap((a, i) => unbondings[i].flatMap((u) => u.entries.map((e) => {
      const tr = document.createElement("tr");
      tr.dataset.delegator = a.toLowerCase();
      cell(tr, a, "addr");
      cell(tr, moniker.get(u.validator_address) ?? u.validator_address, "validator");
      cell(tr, amount(e.balance), "num amount");
      cell(tr, e.completion_time + (chainTime === 0n ? "" : " (in " + span(seconds(e.completion_time) - chainTime) + ")"), "num completes");
      return tr;
    }))), "No unbonding under way for these accounts.");
  }

  const PANEL_PROPOSALS = 20;
  async function proposalsPanel() {
    let list;
    try { list = await call("cosmos_proposals"); } catch { present.gov = false; $("proposals-panel").hidden = true; return; }
    const proposals = list.slice(-PANEL_PROPOSALS).reverse();
    const tallies = await Promise.all(proposals.map((p) => p.status === "PROPOSAL_STATUS_VOTING_PERIOD" ? call("cosmos_tally", ["0x" + BigInt(p.id).toString(16)]) : p.final_tally_result));
    fill("proposals", proposals.map((p, i) => {
      const tr = document.createElement("tr");
      tr.dataset.id = p.id;
      const t = tallies[i];
      cell(tr, p.id, "num");
      cell(tr, p.title, "title");
      cell(tr, status(p.status) + (p.failed_reason ? " (" + p.failed_reason + ")" : ""), "status");
      cell(tr, [["yes", t.yes_count], ["abstain", t.abstain_count], ["no", t.no_count], ["veto", t.no_with_veto_count]].map(([k, v]) => k + " " + amount(v)).join(" · "), "tally");
      cell(tr, p.voting_end_time ?? ("deposit until " + p.deposit_end_time), "num");
      return tr;
    }), "No proposal.");
  }

  /** The coin's name from its bank metadata, then the panels' first fill. */
  async function startConsole() {
    try {
      const state = await call("cosmos_stakingState");
      coin.denom = state.staking_params.bond_denom;
      const meta = await call("cosmos_denomMetadata", [coin.denom]);
      coin.symbol = meta === null ? coin.denom : meta.symbol;
      if (meta !== null) coin.decimals = Math.max(...meta.denom_units.map((u) => u.exponent));
    } catch {
      // a chain without the staking module: its panels are hidden, amounts read in wei
      present.staking = false;
      $("staking-panels").hidden = true;
      coin.decimals = 0;
      coin.symbol = "wei";
    }
    await refreshPanels();
  }
`;
