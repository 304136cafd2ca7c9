import { expect } from "chai";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import {
  type AppConfigLayer,
  defaultAppConfig,
  layerFromFlags,
  parseAppToml,
  parseGoDuration,
  parseHostPort,
  parseMinimumGasPrices,
  readAppToml,
  resolveAppConfig,
  runtimeSettings,
} from "../../src/host/settings/app-config";
import { defaultAppToml } from "../../src/host/node/home";

const NAMESPACES = ["eth", "net", "web3", "txpool", "debug", "personal", "miner", "epochs"];
const defaults = defaultAppConfig(NAMESPACES);

describe("config: app configuration", () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(path.join(tmpdir(), "app-config-"));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const toml = (name: string, text: string): string => {
    const file = path.join(dir, name);
    writeFileSync(file, text);
    return file;
  };

  it("has Evmos's defaults, with JSON-RPC on and every namespace served", () => {
    const c = resolveAppConfig({ defaults });
    expect(c.minimumGasPrices).to.equal(0n);
    expect(c.jsonRpc).to.deep.equal({
      enable: true,
      address: { host: "127.0.0.1", port: 8545 },
      wsAddress: { host: "127.0.0.1", port: 8546 },
      api: NAMESPACES,
      gasCap: 25_000_000n,
      evmTimeoutMs: 5000,
      txFeeCap: 1,
      filterCap: 200,
      feeHistoryCap: 100,
      logsCap: 10_000,
      blockRangeCap: 10_000,
      httpTimeoutMs: 30_000,
      httpIdleTimeoutMs: 120_000,
      allowUnprotectedTxs: false,
      allowInsecureUnlock: true,
      maxOpenConnections: 0,
      batchRequestLimit: 1000,
      batchResponseMaxSize: 25_000_000,
      bodyLimit: 5 * 1024 * 1024,
      enableIndexer: false,
      log: false,
      allowedOrigins: [],
      wsOrigins: [],
    });
    expect(c.epochs).to.deep.equal({ profile: "evmos", tickRule: "spec", hookGasLimit: 3_000_000n });
    expect(c.txpool).to.deep.equal({ globalPending: 5120, accountSlots: 16, globalQueued: 1024, accountQueued: 64, priceBump: 10 });
  });

  it("reads a batch's budgets from [json-rpc] (batch-response-max-size, http-timeout) into the runtime's", () => {
    const file = toml("batch.toml", '[json-rpc]\nbatch-response-max-size = 1000\nhttp-timeout = "2s"\n');
    const c = resolveAppConfig({ appToml: readAppToml(file), defaults });
    expect(runtimeSettings(c).batch).to.deep.equal({ maxResponseBytes: 1000, timeoutMs: 2000 });
    expect(runtimeSettings(resolveAppConfig({ defaults })).batch).to.deep.equal({ maxResponseBytes: 25_000_000, timeoutMs: 30_000 });
  });

  it("reads the pool's limits from [txpool], refusing unknown keys and values that are not whole numbers above 0", () => {
    const file = toml("pool.toml", "[txpool]\nglobal-slots = 100\naccount-slots = 4\nglobal-queue = 50\naccount-queue = 8\nprice-bump = 25\n");
    const c = resolveAppConfig({ appToml: readAppToml(file), defaults });
    expect(c.txpool).to.deep.equal({ globalPending: 100, accountSlots: 4, globalQueued: 50, accountQueued: 8, priceBump: 25 });
    expect(runtimeSettings(c).chain.txPool).to.deep.equal(c.txpool);
    for (const [line, message] of [
      ["account-queue = 0", "txpool.account-queue: expected a whole number greater than 0, got 0"],
      ['price-bump = "10%"', 'txpool.price-bump: expected a whole number greater than 0, got "10%"'],
      ["global-slots = 1.5", "txpool.global-slots: expected a whole number greater than 0, got 1.5"],
      ["accountqueue = 5", "txpool.accountqueue: unknown key (known: global-slots, account-slots, global-queue, account-queue, price-bump)"],
    ]) {
      const bad = toml("badpool.toml", `[txpool]\n${line}\n`);
      expect(() => readAppToml(bad), line).to.throw(`${bad}: ${message}`);
    }
  });

  it("reads the default app.toml back as the defaults (with and without an api line)", () => {
    for (const text of [defaultAppToml(), defaultAppToml(NAMESPACES)]) {
      const layer = parseAppToml(text, "app.toml");
      expect(resolveAppConfig({ appToml: layer, defaults })).to.deep.equal(defaults);
      for (const key of [
        "minimum-gas-prices",
        "gas-cap",
        "evm-timeout",
        "http-idle-timeout",
        "max-open-connections",
        "batch-request-limit",
        "body-limit",
        "auth-token",
        "tick-rule",
        "hook-gas-limit",
        "log",
        "[txpool]",
        "global-slots",
        "account-slots",
        "global-queue",
        "account-queue",
        "price-bump",
      ]) {
        expect(text).to.include(key);
      }
    }
  });

  it("applies flags over app.toml over hardhat.config over defaults", () => {
    const appToml = readAppToml(toml("prec.toml", 'minimum-gas-prices = "7aevmos"\n[json-rpc]\nlogs-cap = 50\ngas-cap = 1000\naddress = "0.0.0.0:9000"\n[epochs]\ntick-rule = "evmos"\n'));
    const hardhatConfig: AppConfigLayer = { source: "hardhat.config", epochs: { tickRule: "spec", hookGasLimit: 1_000_000n }, jsonRpc: { logsCap: 1, filterCap: 3 } };
    const c = resolveAppConfig({ flags: { "json-rpc.logs-cap": "9", "minimum-gas-prices": "", port: "9100", home: "/h" }, appToml, hardhatConfig, defaults });
    expect(c.jsonRpc.logsCap).to.equal(9); // flag
    expect(c.minimumGasPrices).to.equal(0n); // flag "" beats the file's 7
    expect(c.jsonRpc.gasCap).to.equal(1000n); // app.toml
    expect(c.jsonRpc.filterCap).to.equal(3); // hardhat.config
    expect(c.epochs).to.deep.equal({ profile: "evmos", tickRule: "evmos", hookGasLimit: 1_000_000n }); // app.toml, hardhat.config
    expect(c.jsonRpc.address).to.deep.equal({ host: "0.0.0.0", port: 9100 }); // --port over the file's port, host kept
    expect(c.home).to.equal("/h");
    expect(defaults.jsonRpc.address).to.deep.equal({ host: "127.0.0.1", port: 8545 }); // defaults untouched
  });

  it("takes the profile from --profile > app.toml > hardhat.config; an unset tick rule is the profile's", () => {
    const sdk = readAppToml(toml("profile.toml", '[epochs]\nprofile = "cosmos-evm"\n'));
    expect(resolveAppConfig({ appToml: sdk, defaults }).epochs).to.deep.equal({ profile: "cosmos-evm", tickRule: "sdk", hookGasLimit: 3_000_000n });
    const hardhatConfig: AppConfigLayer = { source: "hardhat.config", epochs: { profile: "cosmos-evm" } };
    expect(resolveAppConfig({ hardhatConfig, defaults }).epochs.tickRule).to.equal("sdk");
    expect(resolveAppConfig({ flags: { profile: "evmos" }, hardhatConfig, defaults }).epochs).to.deep.include({ profile: "evmos", tickRule: "spec" });
    // a tick rule someone set stays, whatever the profile
    const both = readAppToml(toml("both.toml", '[epochs]\nprofile = "cosmos-evm"\ntick-rule = "spec"\n'));
    expect(resolveAppConfig({ appToml: both, defaults }).epochs).to.deep.include({ profile: "cosmos-evm", tickRule: "spec" });
    expect(() => readAppToml(toml("bad.toml", '[epochs]\nprofile = "osmosis"\n'))).to.throw('epochs.profile: expected "evmos" or "cosmos-evm", got "osmosis"');
    expect(() => layerFromFlags({ profile: "osmosis" })).to.throw('command line: --profile: expected "evmos" or "cosmos-evm", got "osmosis"');
  });

  it("treats --hostname/--port as json-rpc.address, winning over it", () => {
    const c = resolveAppConfig({ flags: { "json-rpc.address": "10.0.0.1:7000", hostname: "127.0.0.2" }, defaults });
    expect(c.jsonRpc.address).to.deep.equal({ host: "127.0.0.2", port: 7000 });
    expect(resolveAppConfig({ flags: { "json-rpc.ws-address": "[::1]:8600" }, defaults }).jsonRpc.wsAddress).to.deep.equal({ host: "::1", port: 8600 });
    // the WebSocket-only listener nobody placed follows the HTTP listener: its host, its port + 1
    expect(resolveAppConfig({ flags: { port: "18545" }, defaults }).jsonRpc.wsAddress).to.deep.equal({ host: "127.0.0.1", port: 18546 });
    expect(resolveAppConfig({ flags: { hostname: "0.0.0.0" }, defaults }).jsonRpc.wsAddress).to.deep.equal({ host: "0.0.0.0", port: 8546 });
    expect(resolveAppConfig({ flags: { port: "0" }, defaults }).jsonRpc.wsAddress).to.deep.equal({ host: "127.0.0.1", port: 0 });
    // Evmos's own default stays one value away, and a placed listener stays where it was put
    const evmos = readAppToml(toml("evmos-ws.toml", '[json-rpc]\nws-address = "0.0.0.0:8546"\n'));
    expect(resolveAppConfig({ appToml: evmos, flags: { port: "18545" }, defaults }).jsonRpc.wsAddress).to.deep.equal({ host: "0.0.0.0", port: 8546 });
    expect(() => layerFromFlags({ port: "70000" })).to.throw('command line: --port: expected a port number, got "70000"');
    expect(() => layerFromFlags({ "json-rpc.address": "8545" })).to.throw('command line: --json-rpc.address: expected host:port, got "8545"');
  });

  it("sets the node log's level from --quiet or --verbose, never both", () => {
    expect(resolveAppConfig({ defaults }).log).to.equal("normal");
    expect(resolveAppConfig({ flags: { quiet: true }, defaults }).log).to.equal("quiet");
    expect(resolveAppConfig({ flags: { verbose: true }, defaults }).log).to.equal("verbose");
    expect(() => layerFromFlags({ quiet: true, verbose: true })).to.throw("command line: --quiet: cannot be used with --verbose");
  });

  it("turns on the full JSON-RPC log with --json-rpc.log or [json-rpc] log = true", () => {
    expect(resolveAppConfig({ defaults }).jsonRpc.log).to.equal(false);
    expect(resolveAppConfig({ flags: { "json-rpc.log": true }, defaults }).jsonRpc.log).to.equal(true);
    expect(resolveAppConfig({ appToml: parseAppToml("[json-rpc]\nlog = true\n", "app.toml"), defaults }).jsonRpc.log).to.equal(true);
    expect(() => layerFromFlags({ "json-rpc.log": "loud" })).to.throw('command line: --json-rpc.log: expected true or false, got "loud"');
  });

  it("parses flag values as Evmos spells them: booleans, comma lists, durations", () => {
    const c = resolveAppConfig({
      flags: {
        "json-rpc.enable": "true",
        "json-rpc.allow-unprotected-txs": true,
        "json-rpc.api": " eth, net ,,web3",
        "json-rpc.evm-timeout": "1m30s",
        "json-rpc.txfee-cap": "0.5",
        "json-rpc.auth-token": "tok",
      },
      defaults,
    });
    expect(c.jsonRpc).to.deep.include({ enable: true, allowUnprotectedTxs: true, api: ["eth", "net", "web3"], evmTimeoutMs: 90_000, txFeeCap: 0.5, authToken: "tok" });
    expect(() => layerFromFlags({ "json-rpc.enable": "yes" })).to.throw('command line: --json-rpc.enable: expected true or false, got "yes"');
    expect(() => layerFromFlags({ "json-rpc.gas-cap": "-5" })).to.throw("--json-rpc.gas-cap: cannot be negative");
    expect(() => layerFromFlags({ "json-rpc.gas-cap": "1e6" })).to.throw("--json-rpc.gas-cap: expected a non-negative integer (uint64)");
  });

  it("validates with Evmos's texts, naming the file and the key", () => {
    const cases: Array<[string, string]> = [
      ["filter-cap = -1", "json-rpc.filter-cap: JSON-RPC filter-cap cannot be negative"],
      ["feehistory-cap = 0", "json-rpc.feehistory-cap: JSON-RPC feehistory-cap cannot be negative or 0"],
      ["logs-cap = -3", "json-rpc.logs-cap: JSON-RPC logs cap cannot be negative"],
      ["block-range-cap = -3", "json-rpc.block-range-cap: JSON-RPC block range cap cannot be negative"],
      ["txfee-cap = -0.5", "json-rpc.txfee-cap: JSON-RPC tx fee cap cannot be negative"],
      ['evm-timeout = "-1s"', "json-rpc.evm-timeout: JSON-RPC EVM timeout duration cannot be negative"],
      ['http-timeout = "-1s"', "json-rpc.http-timeout: JSON-RPC HTTP timeout duration cannot be negative"],
      ['http-idle-timeout = "-2m"', "json-rpc.http-idle-timeout: JSON-RPC HTTP idle timeout duration cannot be negative"],
      ['api = "eth,net,eth"', "json-rpc.api: repeated API namespace 'eth'"],
      ['evm-timeout = "5"', 'json-rpc.evm-timeout: time: missing unit in duration "5"'],
      ["evm-timeout = 5", 'json-rpc.evm-timeout: expected a duration string such as "5s", got 5'],
      ['logs-cap = "many"', 'json-rpc.logs-cap: expected a non-negative integer, got "many"'],
      ["enable = 1", "json-rpc.enable: expected true or false, got 1"],
      ["gas-cap = 99999999999999999999", "json-rpc.gas-cap: expected a non-negative integer (uint64), got 99999999999999999999"],
      ["batch-request-limit = 0", "json-rpc.batch-request-limit: JSON-RPC batch-request-limit must be greater than 0"],
      ["gas_cap = 5", "json-rpc.gas_cap: unknown key (known: enable, address"],
    ];
    for (const [line, message] of cases) {
      const file = toml("bad.toml", `[json-rpc]\n${line}\n`);
      expect(() => readAppToml(file), line).to.throw(`${file}: ${message}`);
    }
    const epochs = toml("ep.toml", '[epochs]\ntick-rule = "fast"\n');
    expect(() => readAppToml(epochs)).to.throw(`${epochs}: epochs.tick-rule: expected "spec", "evmos" or "sdk", got "fast"`);
    const mgp = toml("mgp.toml", 'minimum-gas-prices = "20atom"\n');
    expect(() => readAppToml(mgp)).to.throw(`${mgp}: minimum-gas-prices: expected "<amount>aevmos" (a whole number of wei per gas), got "20atom"`);
  });

  it("accepts Evmos keys it does not use, and other sections of evmosd's app.toml", () => {
    const file = toml("evmos.toml", '[api]\nenable = true\n[json-rpc]\nmetrics-address = "127.0.0.1:6065"\nfix-revert-gas-refund-height = 0\napi = ["eth", "net"]\n');
    expect(readAppToml(file).jsonRpc).to.deep.equal({ api: ["eth", "net"] });
  });

  it("stops on a malformed file, naming it and the place", () => {
    const file = toml("broken.toml", "[json-rpc\nenable = true\n");
    expect(() => readAppToml(file)).to.throw(new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}: not valid TOML: .*\\(line 1, column \\d+\\)$`));
    const missing = path.join(dir, "none.toml");
    expect(() => readAppToml(missing)).to.throw(`${missing}: cannot read`);
  });

  it("refuses an unknown namespace and an empty api with the source named", () => {
    const file = toml("api.toml", '[json-rpc]\napi = "eth,foo"\n');
    expect(() => resolveAppConfig({ appToml: readAppToml(file), defaults })).to.throw(`${file}: unknown JSON-RPC namespace 'foo' in json-rpc.api (known: ${NAMESPACES.join(", ")})`);
    expect(() => resolveAppConfig({ flags: { "json-rpc.api": "bar" }, defaults })).to.throw("command line: unknown JSON-RPC namespace 'bar' in json-rpc.api");
    expect(() => resolveAppConfig({ flags: { "json-rpc.api": " , " }, defaults })).to.throw("command line: cannot enable JSON-RPC without defining any API namespace");
    expect(resolveAppConfig({ flags: { "json-rpc.api": "", "json-rpc.enable": false }, defaults }).jsonRpc.enable).to.equal(false);
    expect(resolveAppConfig({ flags: { "json-rpc.api": "eth,debug" }, defaults, knownNamespaces: [...NAMESPACES, "debug"] }).jsonRpc.api).to.deep.equal(["eth", "debug"]);
  });

  it("parses Go durations", () => {
    const ok: Array<[string, number]> = [
      ["5s", 5000],
      ["1m30s", 90_000],
      ["500ms", 500],
      ["2m0s", 120_000],
      ["1h", 3_600_000],
      ["1.5s", 1500],
      [".5s", 500],
      ["0", 0],
      ["+3s", 3000],
      ["-1s", -1000],
      ["1500us", 1.5],
      ["1µs", 0.001],
      ["2h45m", 9_900_000],
    ];
    for (const [text, ms] of ok) expect(parseGoDuration(text), text).to.be.closeTo(ms, 1e-9);
    expect(() => parseGoDuration("")).to.throw('time: invalid duration ""');
    expect(() => parseGoDuration("5")).to.throw('time: missing unit in duration "5"');
    expect(() => parseGoDuration("1d")).to.throw('time: unknown unit "d" in duration "1d"');
    expect(() => parseGoDuration("abc")).to.throw('time: invalid duration "abc"');
    expect(() => parseGoDuration("1m 30s")).to.throw('time: unknown unit "m " in duration "1m 30s"');
  });

  it("parses minimum-gas-prices as wei per gas in either profile's coin", () => {
    expect(parseMinimumGasPrices("20aevmos")).to.deep.equal({ amount: 20n, denom: "aevmos" });
    expect(parseMinimumGasPrices(" 0aevmos ")).to.deep.equal({ amount: 0n, denom: "aevmos" });
    expect(parseMinimumGasPrices("")).to.deep.equal({ amount: 0n });
    expect(parseMinimumGasPrices("7.000aevmos")).to.deep.equal({ amount: 7n, denom: "aevmos" });
    expect(parseMinimumGasPrices("1000000000000000000000aevmos")).to.deep.equal({ amount: 10n ** 21n, denom: "aevmos" });
    expect(parseMinimumGasPrices("0atest")).to.deep.equal({ amount: 0n, denom: "atest" });
    for (const bad of ["20", "20atom", "0.5aevmos", "aevmos", "-1aevmos", "1aevmos,2uatom"]) expect(() => parseMinimumGasPrices(bad), bad).to.throw('expected "<amount>aevmos"');
    expect(() => parseMinimumGasPrices("0.5atest")).to.throw('expected "<amount>atest"');
  });

  it("holds the minimum gas price to the chain's own coin: atest under cosmos-evm (local_node.sh's flag), aevmos under evmos", () => {
    const defaults = defaultAppConfig(["eth"]);
    const cosmosEvm = resolveAppConfig({ defaults, flags: { "minimum-gas-prices": "0atest", profile: "cosmos-evm" } });
    expect([cosmosEvm.minimumGasPrices, cosmosEvm.epochs.profile]).to.deep.equal([0n, "cosmos-evm"]);
    expect(resolveAppConfig({ defaults, flags: { "minimum-gas-prices": "25atest", profile: "cosmos-evm" } }).minimumGasPrices).to.equal(25n);
    expect(() => resolveAppConfig({ defaults, flags: { "minimum-gas-prices": "0atest" } })).to.throw(
      'command line: --minimum-gas-prices: expected "<amount>aevmos" (a whole number of wei per gas), the "evmos" chain\'s coin, got "0atest"',
    );
    const file = toml("cosmos.toml", 'minimum-gas-prices = "3aevmos"\n[epochs]\nprofile = "cosmos-evm"\n');
    expect(() => resolveAppConfig({ defaults, appToml: readAppToml(file) })).to.throw(
      `${file}: minimum-gas-prices: expected "<amount>atest" (a whole number of wei per gas), the "cosmos-evm" chain's coin, got "3aevmos"`,
    );
  });

  it("parses host:port like Go", () => {
    expect(parseHostPort("127.0.0.1:8545")).to.deep.equal({ host: "127.0.0.1", port: 8545 });
    expect(parseHostPort(":8545")).to.deep.equal({ host: "0.0.0.0", port: 8545 });
    expect(parseHostPort("[::]:0")).to.deep.equal({ host: "::", port: 0 });
    for (const bad of ["localhost", "host:99999", "a:b", "::1:8545"]) expect(() => parseHostPort(bad), bad).to.throw("expected host:port");
  });
});
