/**
 * The sources of the node's settings read into layers (src/host/settings/app-config.ts merges them):
 * `<home>/config/app.toml` and the command line, each key converted by the one table of keys
 * (src/host/settings/app-config-keys.ts); and the values they hold (gas prices, listen addresses,
 * durations). Errors name the source and the key; where Evmos has a validation text, it is used as is.
 */
import { readFileSync } from "node:fs";
import type * as SmolToml from "smol-toml" with { "resolution-mode": "import" };
import { parseGoDuration } from "../../utils/go-duration";
import type { HostPort } from "../../rpc/transport/server";
import type { TxPoolLimits } from "../../chain/setup";
import type { EpochsProfile, TickRule } from "../../epochs/types";
import { EPOCHS_PROFILES, PROFILES, PROFILE_NAMES, isProfile } from "../../epochs/profile";
import { IGNORED_JSON_RPC_KEYS, JSON_RPC_KEYS, type JsonRpcConfig, type KeySpec } from "./app-config-keys";
import { booleanValue, safeInteger, wholeNumber } from "../../utils/values";
import { errorText } from "../../utils/error-text";

// smol-toml's types are ES module ones; its package also ships CommonJS, which require() loads
// eslint-disable-next-line @typescript-eslint/no-require-imports
const parseToml: typeof SmolToml.parse = (text, opts) => (require("smol-toml") as typeof SmolToml).parse(text, opts);

export interface EpochsAppConfig {
  /** Which chain the node behaves as (docs/profiles.md); chosen once per chain. */
  profile: EpochsProfile;
  tickRule: TickRule;
  hookGasLimit: bigint;
}

/** How much the node prints: errors only, the story of requests, transactions, blocks and epochs, or that plus request params and call results. */
export type NodeLogLevel = "quiet" | "normal" | "verbose";

/** Each log level as the node's log verbosity (geth's 0–5, src/utils/log-level.ts; debug_verbosity changes it later). */
export const LOG_VERBOSITY: Record<NodeLogLevel, number> = { quiet: 1, normal: 3, verbose: 4 };

/** What one source sets. `source` labels its errors: a file path, "command line", "hardhat.config". */
export interface AppConfigLayer {
  source: string;
  minimumGasPrices?: GasPriceSetting;
  log?: NodeLogLevel;
  jsonRpc?: Partial<Omit<JsonRpcConfig, "address">> & { address?: Partial<HostPort> };
  epochs?: Partial<EpochsAppConfig>;
  txpool?: Partial<TxPoolLimits>;
  home?: string;
}

// ------------------------------------------------------------------------------------------ values

/** Milliseconds as Go's Duration.String writes them: "500ms", "5s", "1.5s", "2m0s", "1h0m0s", "0s". */
export function formatGoDuration(ms: number): string {
  if (ms === 0) return "0s";
  if (ms < 1000) return `${ms}ms`;
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor((ms % 3_600_000) / 60_000);
  const s = `${(ms % 60_000) / 1000}s`;
  return h > 0 ? `${h}h${m}m${s}` : m > 0 ? `${m}m${s}` : s;
}

const gasPriceForm = (denom = "aevmos") => `expected "<amount>${denom}" (a whole number of wei per gas)`;

/** A minimum gas price as written: wei per gas and the denom it names (undefined for `""`, no minimum). */
export interface GasPriceSetting {
  amount: bigint;
  denom?: string;
}

/**
 * `"20aevmos"` → 20 wei per gas in aevmos; `""` → 0 (Cosmos's "no minimum"). Either profile's denom
 * reads here; resolveAppConfig then holds it to the chain's own (`checkGasPriceDenom`).
 */
export function parseMinimumGasPrices(value: string): GasPriceSetting {
  const v = value.trim();
  if (v === "") return { amount: 0n };
  const m = /^(\d+)(?:\.(\d+))?([a-zA-Z][a-zA-Z0-9/:._-]{2,127})$/.exec(v);
  if (m === null || /[1-9]/.test(m[2] ?? "") || !EPOCHS_PROFILES.some((p) => PROFILES[p].denom === m[3]))
    throw new Error(`${gasPriceForm(m?.[3] === "atest" ? "atest" : "aevmos")}, got ${JSON.stringify(value)}`);
  return { amount: BigInt(m[1]), denom: m[3] };
}

/** A price in another chain's denom is refused, naming the chain's own (Cosmos would take it as no minimum for the EVM's coin). */
export function checkGasPriceDenom(setting: GasPriceSetting, profile: EpochsProfile, where: string): void {
  const denom = PROFILES[profile].denom;
  if (setting.denom !== undefined && setting.denom !== denom) {
    throw new Error(`${where}: ${gasPriceForm(denom)}, the "${profile}" chain's coin, got "${setting.amount}${setting.denom}"`);
  }
}

/** `host:port` (IPv6 as `[::1]:8545`); an empty host means all interfaces, as in Go. */
export function parseHostPort(value: string): HostPort {
  const m = /^(\[[^\]]*\]|[^:]*):(\d{1,5})$/.exec(value.trim());
  if (m === null || Number(m[2]) > 65535) throw new Error(`expected host:port, got ${JSON.stringify(value)}`);
  const host = m[1].replace(/^\[(.*)\]$/, "$1");
  return { host: host === "" ? "0.0.0.0" : host, port: Number(m[2]) };
}

/** A comma list (or TOML array) of namespaces, trimmed; repeats are refused with Evmos's text. */
function parseApi(value: unknown): string[] {
  const items = Array.isArray(value) ? value : typeof value === "string" ? value.split(",") : undefined;
  if (items === undefined || items.some((s) => typeof s !== "string")) throw new Error(`expected a comma-separated list such as "eth,net,web3"`);
  const names = (items as string[]).map((s) => s.trim()).filter((s) => s !== "");
  const seen = new Set<string>();
  for (const ns of names) {
    if (seen.has(ns)) throw new Error(`repeated API namespace '${ns}'`);
    seen.add(ns);
  }
  return names;
}

/** A comma list (or TOML array) of browser origins: hosts (`localhost`), full origins (`http://app.test:3000`) or `*`. */
function parseOrigins(value: unknown): string[] {
  const items = Array.isArray(value) ? value : typeof value === "string" ? value.split(",") : undefined;
  if (items === undefined || items.some((s) => typeof s !== "string")) throw new Error(`expected a comma-separated list of origins such as "localhost,http://app.test:3000"`);
  return (items as string[]).map((s) => s.trim()).filter((s) => s !== "");
}

const MAX_UINT64 = 2n ** 64n - 1n;

/** One value of kind `kind`, from TOML (typed) or a flag (string); throws the problem without the key. */
function convert(spec: KeySpec, raw: unknown): unknown {
  const bad = (what: string): never => {
    throw new Error(`expected ${what}, got ${typeof raw === "bigint" ? raw.toString() : JSON.stringify(raw)}`);
  };
  const numeric = (allowFraction: boolean): number => {
    const n = typeof raw === "number" || typeof raw === "bigint" ? Number(raw) : typeof raw === "string" && raw.trim() !== "" ? Number(raw) : NaN;
    if (!Number.isFinite(n) || (!allowFraction && !Number.isSafeInteger(n))) bad(allowFraction ? "a non-negative number" : "a non-negative integer");
    if (n < 0 || (spec.positive === true && n === 0)) throw new Error(spec.negative ?? "cannot be negative");
    return n;
  };
  switch (spec.kind) {
    case "bool":
      return booleanValue(raw, { strings: true }) ?? bad("true or false");
    case "address":
      return typeof raw === "string" ? parseHostPort(raw) : bad("a string host:port");
    case "api":
      return parseApi(raw);
    case "origins":
      return parseOrigins(raw);
    case "uint64": {
      const s = typeof raw === "number" && Number.isSafeInteger(raw) ? String(raw) : typeof raw === "bigint" ? raw.toString() : typeof raw === "string" ? raw.trim() : "";
      if (s.startsWith("-") && /^-\d+$/.test(s)) throw new Error("cannot be negative");
      return wholeNumber(s, { max: MAX_UINT64 }) ?? bad("a non-negative integer (uint64)");
    }
    case "int":
      return numeric(false);
    case "float":
      return numeric(true);
    case "duration": {
      if (raw === 0 || raw === 0n) return 0;
      if (typeof raw !== "string") return bad(`a duration string such as "5s"`);
      const ms = parseGoDuration(raw.trim());
      if (ms < 0) throw new Error(spec.negative ?? "cannot be negative");
      return ms;
    }
    case "token":
      if (raw === "") return undefined; // empty = generate one
      if (typeof raw !== "string" || !/^[\x21-\x7e]+$/.test(raw)) return bad("printable ASCII without spaces");
      return raw;
  }
}

function fail(source: string, key: string, err: unknown): never {
  const where = source === "" ? key : `${source}: ${key}`;
  throw new Error(`${where}: ${errorText(err)}`);
}

function setJsonRpc(layer: AppConfigLayer, spec: KeySpec, value: unknown): void {
  layer.jsonRpc ??= {};
  (layer.jsonRpc as Record<string, unknown>)[spec.field] = value;
}

function parseProfile(raw: unknown): EpochsProfile {
  if (!isProfile(raw)) throw new Error(`expected ${PROFILE_NAMES}, got ${JSON.stringify(raw)}`);
  return raw;
}

function setEpochs(layer: AppConfigLayer, key: string, raw: unknown, label: string): void {
  layer.epochs ??= {};
  try {
    if (key === "profile") {
      layer.epochs.profile = parseProfile(raw);
    } else if (key === "tick-rule") {
      if (raw !== "spec" && raw !== "evmos" && raw !== "sdk") throw new Error(`expected "spec", "evmos" or "sdk", got ${JSON.stringify(raw)}`);
      layer.epochs.tickRule = raw;
    } else if (key === "hook-gas-limit") {
      const n = convert({ field: "gasCap", kind: "uint64", description: "" }, raw) as bigint;
      if (n === 0n) throw new Error("must be greater than 0");
      layer.epochs.hookGasLimit = n;
    } else {
      throw new Error(`unknown key (known: profile, tick-rule, hook-gas-limit)`);
    }
  } catch (err) {
    fail(layer.source, label, err);
  }
}

/** The [txpool] keys (geth's --txpool.* flags, spelled as app.toml spells keys) and the limit each sets. */
export const TXPOOL_KEYS: Record<string, { field: keyof TxPoolLimits; description: string }> = {
  "global-slots": { field: "globalPending", description: "Executable transactions (the next nonce onward, no gap) the pool admits, all accounts together" },
  "account-slots": { field: "accountSlots", description: "Executable transactions each account is sure of once global-slots is reached" },
  "global-queue": { field: "globalQueued", description: "Future transactions (behind a nonce gap) the pool holds, all accounts together; the cheapest leaves for a better-paying one" },
  "account-queue": { field: "accountQueued", description: "Future transactions one account may have behind a nonce gap" },
  "price-bump": { field: "priceBump", description: "Percent by which a replacement (same sender and nonce) must raise both its max fee and its tip" },
};

function setTxPool(layer: AppConfigLayer, key: string, raw: unknown, label: string): void {
  layer.txpool ??= {};
  try {
    const spec = TXPOOL_KEYS[key];
    if (spec === undefined) throw new Error(`unknown key (known: ${Object.keys(TXPOOL_KEYS).join(", ")})`);
    const n = safeInteger(typeof raw === "bigint" ? Number(raw) : raw, { min: 1 });
    if (n === undefined) throw new Error(`expected a whole number greater than 0, got ${typeof raw === "bigint" ? raw : JSON.stringify(raw)}`);
    layer.txpool[spec.field] = n;
  } catch (err) {
    fail(layer.source, label, err);
  }
}

// ---------------------------------------------------------------------------------------- sources

/** Parses app.toml text; `source` (the file path) prefixes every error. Unknown top-level tables are Evmos's own and ignored. */
export function parseAppToml(text: string, source: string): AppConfigLayer {
  let doc: Record<string, unknown>;
  try {
    doc = parseToml(text, { integersAsBigInt: "asNeeded" }) as Record<string, unknown>;
  } catch (err) {
    const e = err as Error & { line?: number; column?: number };
    const first = e.message.split("\n")[0].replace(/^Invalid TOML document: /, "");
    throw new Error(`${source}: not valid TOML: ${first}${e.line !== undefined ? ` (line ${e.line}, column ${e.column})` : ""}`);
  }
  const layer: AppConfigLayer = { source };
  const mgp = doc["minimum-gas-prices"];
  if (mgp !== undefined) {
    try {
      if (typeof mgp !== "string") throw new Error(`${gasPriceForm()}, got ${typeof mgp === "bigint" ? mgp : JSON.stringify(mgp)}`);
      layer.minimumGasPrices = parseMinimumGasPrices(mgp);
    } catch (err) {
      fail(source, "minimum-gas-prices", err);
    }
  }
  for (const [section, handle] of [
    ["json-rpc", (k: string, v: unknown) => readJsonRpcKey(layer, k, v, `json-rpc.${k}`)],
    ["epochs", (k: string, v: unknown) => setEpochs(layer, k, v, `epochs.${k}`)],
    ["txpool", (k: string, v: unknown) => setTxPool(layer, k, v, `txpool.${k}`)],
  ] as const) {
    const table = doc[section];
    if (table === undefined) continue;
    if (typeof table !== "object" || table === null || Array.isArray(table)) fail(source, section, new Error("must be a table"));
    for (const [k, v] of Object.entries(table as Record<string, unknown>)) handle(k, v);
  }
  return layer;
}

function readJsonRpcKey(layer: AppConfigLayer, key: string, raw: unknown, label: string): void {
  const spec = JSON_RPC_KEYS[key];
  if (spec === undefined) {
    if (IGNORED_JSON_RPC_KEYS.has(key)) return;
    fail(layer.source, label, new Error(`unknown key (known: ${Object.keys(JSON_RPC_KEYS).join(", ")})`));
  }
  let value: unknown;
  try {
    value = convert(spec, raw);
  } catch (err) {
    fail(layer.source, label, err);
  }
  setJsonRpc(layer, spec, value);
}

/** Reads and checks an app.toml; errors read `<path>: <key>: <problem>`. */
export function readAppToml(file: string): AppConfigLayer {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (err) {
    throw new Error(`${file}: cannot read: ${(err as Error).message}`);
  }
  return parseAppToml(text, file);
}

/**
 * The command line: keys as Evmos spells them (`json-rpc.address`, `json-rpc.api`, …,
 * `minimum-gas-prices`, `home`, `profile`) plus Hardhat's `hostname` and `port`, which set the same listener
 * as `json-rpc.address` and win over it, and the log's `quiet` / `verbose` (true when given).
 * Pass only the flags the user gave.
 */
export function layerFromFlags(flags: Record<string, string | boolean>, source = "command line"): AppConfigLayer {
  const layer: AppConfigLayer = { source };
  for (const [name, raw] of Object.entries(flags)) {
    if (name.startsWith("json-rpc.")) {
      readJsonRpcKey(layer, name.slice("json-rpc.".length), raw, `--${name}`);
    } else if (name === "minimum-gas-prices") {
      try {
        layer.minimumGasPrices = parseMinimumGasPrices(String(raw));
      } catch (err) {
        fail(source, `--${name}`, err);
      }
    } else if (name === "home" && typeof raw === "string") {
      layer.home = raw;
    } else if (name === "profile") {
      try {
        layer.epochs = { ...layer.epochs, profile: parseProfile(raw) };
      } catch (err) {
        fail(source, `--${name}`, err);
      }
    }
  }
  if (flags.quiet === true && flags.verbose === true) fail(source, "--quiet", new Error("cannot be used with --verbose"));
  if (flags.quiet === true) layer.log = "quiet";
  if (flags.verbose === true) layer.log = "verbose";
  const address = { ...(layer.jsonRpc?.address ?? {}) };
  if (typeof flags.hostname === "string") address.host = flags.hostname;
  if (flags.port !== undefined) {
    const port = Number(flags.port);
    if (!/^\d+$/.test(String(flags.port)) || port > 65535) fail(source, "--port", new Error(`expected a port number, got ${JSON.stringify(flags.port)}`));
    address.port = port;
  }
  if (address.host !== undefined || address.port !== undefined) setJsonRpc(layer, { field: "address", kind: "address", description: "" }, address);
  return layer;
}
