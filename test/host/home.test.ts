import { expect } from "chai";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { readAppToml } from "../../src/host/settings/app-config";
import { defaultAppToml, initHome, writeMinimumGasPrices } from "../../src/host/node/home";

describe("config: home directory", () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), "home-"));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("creates config/app.toml, config/genesis.json, data/ and an owner-only keystore/", () => {
    let calls = 0;
    const home = initHome(path.join(dir, "node"), { genesisJson: () => (calls++, '{"chain_id":"evmos_9000-1"}') });
    expect(readFileSync(home.appToml, "utf8")).to.equal(defaultAppToml());
    expect(readFileSync(home.genesis, "utf8")).to.equal('{"chain_id":"evmos_9000-1"}');
    expect(existsSync(home.data)).to.equal(true);
    expect(statSync(home.keystore).mode & 0o777).to.equal(0o700);
    expect(calls).to.equal(1);
    expect(home.created.map((p) => path.relative(home.dir, p)).sort()).to.deep.equal(["config", "config/app.toml", "config/genesis.json", "data", "keystore"]);
  });

  it("leaves files that are present as they are (the genesis callback is not even called)", () => {
    mkdirSync(path.join(dir, "config"));
    writeFileSync(path.join(dir, "config", "app.toml"), "# mine\n");
    writeFileSync(path.join(dir, "config", "genesis.json"), "{}");
    mkdirSync(path.join(dir, "keystore"));
    chmodSync(path.join(dir, "keystore"), 0o755);
    const home = initHome(dir, { genesisJson: () => expect.fail("must not be called") });
    expect(readFileSync(home.appToml, "utf8")).to.equal("# mine\n");
    expect(readFileSync(home.genesis, "utf8")).to.equal("{}");
    expect(statSync(home.keystore).mode & 0o777).to.equal(0o700); // keys: narrowed
    expect(home.created.map((p) => path.basename(p))).to.deep.equal(["data"]);
    expect(initHome(dir, { genesisJson: () => "{}" }).created).to.deep.equal([]);
  });

  it("app.toml may hold the token: written owner-only, and an existing one with a token readable by others is narrowed", () => {
    const home = initHome(path.join(dir, "fresh"), { genesisJson: () => "{}" });
    expect(statSync(home.appToml).mode & 0o777).to.equal(0o600);
    mkdirSync(path.join(dir, "old", "config"), { recursive: true });
    const withToken = path.join(dir, "old", "config", "app.toml");
    writeFileSync(withToken, '[json-rpc]\nauth-token = "abc"\n', { mode: 0o644 });
    chmodSync(withToken, 0o644);
    initHome(path.join(dir, "old"), { genesisJson: () => "{}" });
    expect(statSync(withToken).mode & 0o777).to.equal(0o600);
    // without a token, the user's own mode stays
    mkdirSync(path.join(dir, "plain", "config"), { recursive: true });
    const plain = path.join(dir, "plain", "config", "app.toml");
    writeFileSync(plain, "# mine\n");
    chmodSync(plain, 0o644);
    initHome(path.join(dir, "plain"), { genesisJson: () => "{}" });
    expect(statSync(plain).mode & 0o777).to.equal(0o644);
  });

  it("writes minimum-gas-prices into app.toml, keeping the comments and the other keys", () => {
    const home = initHome(dir, { genesisJson: () => "{}" });
    const before = readFileSync(home.appToml, "utf8");
    writeMinimumGasPrices(home.appToml, 25n);
    const after = readFileSync(home.appToml, "utf8");
    expect(after).to.equal(before.replace('minimum-gas-prices = "0aevmos"', 'minimum-gas-prices = "25aevmos"'));
    expect(readAppToml(home.appToml).minimumGasPrices).to.deep.equal({ amount: 25n, denom: "aevmos" });
    writeMinimumGasPrices(home.appToml, "30aevmos");
    expect(readAppToml(home.appToml).minimumGasPrices).to.deep.equal({ amount: 30n, denom: "aevmos" });
    expect(() => writeMinimumGasPrices(home.appToml, "3uatom")).to.throw('expected "<amount>aevmos"');
    expect(readAppToml(home.appToml).minimumGasPrices).to.deep.equal({ amount: 30n, denom: "aevmos" });
  });

  it("writes a cosmos-evm home's gas price in its coin (atest), from the start and from miner_setGasPrice", () => {
    const home = initHome(dir, { genesisJson: () => "{}", profile: "cosmos-evm" });
    expect(readFileSync(home.appToml, "utf8")).to.contain('minimum-gas-prices = "0atest"');
    writeMinimumGasPrices(home.appToml, 7n, "atest");
    expect(readAppToml(home.appToml).minimumGasPrices).to.deep.equal({ amount: 7n, denom: "atest" });
  });

  it("adds the key at the top level when the file lacks it, never inside a table", () => {
    const file = path.join(dir, "app.toml");
    writeFileSync(file, '# top comment\n[other]\nminimum-gas-prices = "1aevmos"\nlogs-cap = 5\n');
    writeMinimumGasPrices(file, 9n);
    const text = readFileSync(file, "utf8");
    expect(text).to.equal('# top comment\nminimum-gas-prices = "9aevmos"\n\n[other]\nminimum-gas-prices = "1aevmos"\nlogs-cap = 5\n');
    writeFileSync(file, "");
    writeMinimumGasPrices(file, 4n);
    expect(readFileSync(file, "utf8")).to.equal('minimum-gas-prices = "4aevmos"\n');
  });
});
