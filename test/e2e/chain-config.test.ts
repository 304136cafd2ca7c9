/**
 * Config mapping: a user's `networks.hardhat` (resolved by Hardhat itself, then by our extender)
 * → the chain's ChainConfig, and the `epochs` section's resolution.
 */
import { expect } from "chai";
import { spawnSync } from "node:child_process";
import { resolveConfig } from "hardhat/internal/core/config/config-resolution";
import type { HardhatUserConfig } from "hardhat/types";
import { HDNodeWallet, Wallet, hexlify } from "ethers";
import hre from "hardhat";
import { DEFAULT_ACCOUNT_BALANCE, DEFAULT_SEND_GAS, defaultChainConfig } from "../../src/chain/config";
import fs from "node:fs";
import { type AppConfigLayer, defaultAppConfig, readAppToml, resolveAppConfig, runtimeSettings, serverSettings } from "../../src/host/settings/app-config";
import { CORE_NAMESPACES } from "../../src/rpc/deps";
import os from "node:os";
import path from "node:path";
import { NODE_RECORD_FILE_NAME, TOKEN_FILE_NAME, addLocalBearerToken, extendEpochsConfig, resolveEpochsConfig, toChainConfig } from "../../src/hardhat/chain-config";

/** What Hardhat and our extender make of a user config. */
function chainFor(user: HardhatUserConfig) {
  const config = resolveConfig(hre.config.paths.configFile, user);
  extendEpochsConfig(config, user);
  return { config, chain: toChainConfig(config.networks.hardhat, user.networks?.hardhat) };
}

const KEY_A = "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d";
const KEY_B = "0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a";

describe("hardhat config → chain config", () => {
  it("defaults to chain id 9000, not Hardhat's 31337", () => {
    const { config, chain } = chainFor({});
    expect(config.networks.hardhat.chainId).to.equal(9000);
    expect(chain.chainId).to.equal(9000n);
    expect(hre.config.networks.hardhat.chainId).to.equal(9000);
  });

  it("keeps a chain id the user set, even Hardhat's own default", () => {
    expect(chainFor({ networks: { hardhat: { chainId: 1337 } } }).chain.chainId).to.equal(1337n);
    expect(chainFor({ networks: { hardhat: { chainId: 31337 } } }).chain.chainId).to.equal(31337n);
  });

  it("keeps the chain's defaults where the user set nothing", () => {
    const { chain } = chainFor({});
    const d = defaultChainConfig();
    expect(chain.hardfork).to.equal(d.hardfork);
    expect(chain.blockGasLimit).to.equal(d.blockGasLimit);
    expect(chain.initialBaseFeePerGas).to.equal(d.initialBaseFeePerGas);
    expect(chain.mining).to.deep.equal({ auto: true, interval: 0, order: "priority" });
    expect(chain.coinbase).to.deep.equal(d.coinbase);
    expect(chain.initialDate).to.equal(undefined);
    expect(chain.minGasPrice).to.equal(0n);
    expect(chain.defaultSendGas).to.equal(DEFAULT_SEND_GAS);
    expect(chain.throwOnTransactionFailures).to.equal(true);
    expect(chain.allowBlocksWithSameTimestamp).to.equal(false);
    expect(chain.accounts.map((a) => hexlify(a.privateKey))).to.deep.equal(d.accounts.map((a) => hexlify(a.privateKey)));
  });

  it("derives HD accounts from a mnemonic with path, index, count, balance and passphrase", () => {
    const mnemonic = "candy maple cake sugar pudding cream honey rich smooth crumble sweet treat";
    const { chain } = chainFor({
      networks: { hardhat: { accounts: { mnemonic, count: 3, initialIndex: 2, path: "m/44'/60'/1'/0", accountsBalance: "12345" } } },
    });
    expect(chain.accounts).to.have.length(3);
    expect(chain.accounts.every((a) => a.balance === 12345n)).to.equal(true);
    const expected = HDNodeWallet.fromPhrase(mnemonic, undefined, "m/44'/60'/1'/0/2").privateKey;
    expect(hexlify(chain.accounts[0].privateKey)).to.equal(expected);

    const withPass = chainFor({ networks: { hardhat: { accounts: { mnemonic, count: 1, passphrase: "secret" } } } }).chain;
    expect(hexlify(withPass.accounts[0].privateKey)).to.not.equal(Wallet.fromPhrase(mnemonic).privateKey);
  });

  it("takes accounts given as an array of keys and balances", () => {
    const { chain } = chainFor({
      networks: {
        hardhat: {
          accounts: [
            { privateKey: KEY_A, balance: "1000" },
            { privateKey: KEY_B, balance: "10000000000000000000000" },
          ],
        },
      },
    });
    expect(chain.accounts.map((a) => hexlify(a.privateKey))).to.deep.equal([KEY_A, KEY_B]);
    expect(chain.accounts.map((a) => a.balance)).to.deep.equal([1000n, DEFAULT_ACCOUNT_BALANCE]);
  });

  it("maps mining: automine, interval, a random interval range and the mempool order", () => {
    expect(chainFor({ networks: { hardhat: { mining: { auto: false, interval: 5000 } } } }).chain.mining).to.deep.equal({
      auto: false,
      interval: 5000,
      order: "priority",
    });
    expect(chainFor({ networks: { hardhat: { mining: { auto: false, interval: [1000, 3000], mempool: { order: "fifo" } } } } }).chain.mining).to.deep.equal({
      auto: false,
      interval: [1000, 3000],
      order: "fifo",
    });
  });

  it("maps hardfork (Hardhat's names to EthereumJS's), blockGasLimit and initialBaseFeePerGas", () => {
    const { chain } = chainFor({ networks: { hardhat: { hardfork: "cancun", blockGasLimit: 30_000_000, initialBaseFeePerGas: 7 } } });
    expect(chain.hardfork).to.equal("cancun");
    expect(chain.blockGasLimit).to.equal(30_000_000n);
    expect(chain.initialBaseFeePerGas).to.equal(7n);
    expect(chainFor({ networks: { hardhat: { hardfork: "merge" } } }).chain.hardfork).to.equal("paris");
    expect(chainFor({ networks: { hardhat: { hardfork: "prague" } } }).chain.hardfork).to.equal("prague");
  });

  it("maps the other settings users write", () => {
    const coinbase = "0x00000000000000000000000000000000000000c0";
    const { chain } = chainFor({
      networks: {
        hardhat: {
          initialDate: "2020-01-02T03:04:05Z",
          coinbase,
          minGasPrice: 5,
          gas: 3_000_000,
          allowUnlimitedContractSize: true,
          allowBlocksWithSameTimestamp: true,
          throwOnTransactionFailures: false,
        },
      },
    });
    expect(chain.initialDate?.toISOString()).to.equal("2020-01-02T03:04:05.000Z");
    expect(hexlify(chain.coinbase)).to.equal(coinbase);
    expect(chain.minGasPrice).to.equal(5n);
    expect(chain.defaultSendGas).to.equal(3_000_000n);
    expect(chain.allowUnlimitedContractSize).to.equal(true);
    expect(chain.allowBlocksWithSameTimestamp).to.equal(true);
    expect(chain.throwOnTransactionFailures).to.equal(false);
  });
});

describe("epochs config section", () => {
  it("defaults to the spec's tick rule and a 3,000,000 hook gas limit", () => {
    // no tick rule: the profile's (src/host/settings/app-config.ts, from src/epochs/profile.ts)
    expect(resolveEpochsConfig(undefined)).to.deep.equal({ profile: "evmos", genesis: undefined, hookGasLimit: 3_000_000 });
    expect(hre.config.epochs.tickRule).to.equal(undefined);
  });

  it("keeps the user's genesis and settings", () => {
    const genesis = { epochs: [{ identifier: "hour", duration: 3600 }] };
    const { config } = chainFor({ epochs: { genesis, tickRule: "evmos", hookGasLimit: 500_000 } });
    expect(config.epochs).to.deep.equal({ profile: "evmos", genesis, tickRule: "evmos", hookGasLimit: 500_000 });
  });

  it("refuses an unknown tick rule, a bad hook gas limit and a malformed genesis", () => {
    expect(() => resolveEpochsConfig({ tickRule: "cosmos" as never })).to.throw(/invalid epochs.tickRule "cosmos"/);
    expect(() => resolveEpochsConfig({ hookGasLimit: 0 })).to.throw(/invalid epochs.hookGasLimit 0/);
    expect(() => resolveEpochsConfig({ hookGasLimit: 1.5 })).to.throw(/positive integer/);
    expect(() => resolveEpochsConfig({ genesis: [] as never })).to.throw(/invalid epochs.genesis/);
    // Hardhat 3's place for the in-process network's settings; Hardhat 2 has networks.hardhat
    expect(() => resolveEpochsConfig({ network: { chainId: 1 } })).to.throw(/epochs.network is Hardhat 3's place .* on Hardhat 2 they go on networks.hardhat/);
  });
});

describe("bearer token for a local node", () => {
  it("adds the token only to networks that reach the live node that wrote it, unless Authorization is set", () => {
    const cache = fs.mkdtempSync(path.join(os.tmpdir(), "epochs-token-"));
    try {
      const config = resolveConfig(hre.config.paths.configFile, {
        paths: { cache },
        networks: {
          remote: { url: "https://rpc.example.org:8545" },
          mine: { url: "http://127.0.0.1:8545", httpHeaders: { authorization: "Bearer other" } },
          tunnel: { url: "http://localhost:9545" },
        },
      });
      const headers = (name: string) => (config.networks[name] as { httpHeaders: Record<string, string> }).httpHeaders;
      addLocalBearerToken(config);
      expect(headers("localhost")).to.deep.equal({});

      fs.writeFileSync(path.join(cache, TOKEN_FILE_NAME), "abc123\n");
      addLocalBearerToken(config);
      expect(headers("localhost"), "a token without a node record").to.deep.equal({});

      // a record whose process is gone (a node that crashed; the port may now be someone else's tunnel)
      const dead = spawnSync(process.execPath, ["-e", ""]).pid as number;
      fs.writeFileSync(path.join(cache, NODE_RECORD_FILE_NAME), JSON.stringify({ pid: dead, ports: [8545] }));
      addLocalBearerToken(config);
      expect(headers("localhost"), "a dead node").to.deep.equal({});

      // a node with a home keeps its token there: the cache's is an older node's, never sent to it
      const home = fs.mkdtempSync(path.join(os.tmpdir(), "epochs-token-home-"));
      fs.writeFileSync(path.join(cache, NODE_RECORD_FILE_NAME), JSON.stringify({ pid: process.pid, ports: [8545, 8546], home }));
      addLocalBearerToken(config);
      expect(headers("localhost"), "a node with a home that holds no token").to.deep.equal({});
      // … and its home's token is what requests to it carry
      fs.writeFileSync(path.join(home, TOKEN_FILE_NAME), "home456\n");
      addLocalBearerToken(config);
      expect(headers("localhost"), "a node with a home").to.deep.equal({ Authorization: "Bearer home456" });
      fs.rmSync(home, { recursive: true, force: true });
      delete (config.networks.localhost as { httpHeaders: Record<string, string> }).httpHeaders.Authorization;

      fs.writeFileSync(path.join(cache, NODE_RECORD_FILE_NAME), JSON.stringify({ pid: process.pid, ports: [8545, 8546] }));
      addLocalBearerToken(config);
      expect(headers("localhost")).to.deep.equal({ Authorization: "Bearer abc123" });
      expect(headers("remote")).to.deep.equal({});
      expect(headers("tunnel"), "a loopback URL on a port the node does not serve").to.deep.equal({});
      expect(headers("mine")).to.deep.equal({ authorization: "Bearer other" });
    } finally {
      fs.rmSync(cache, { recursive: true, force: true });
    }
  });
});

describe("node settings → runtime and server options (one resolver)", () => {
  const defaults = defaultAppConfig(CORE_NAMESPACES);
  const resolve = (flags: Record<string, string | boolean>, appToml?: AppConfigLayer) => resolveAppConfig({ flags, appToml, defaults });

  it("narrows namespaces and refuses unknown or repeated ones", () => {
    expect([...runtimeSettings(resolve({ "json-rpc.api": "eth, net,web3" })).enabledNamespaces]).to.deep.equal(["eth", "net", "web3"]);
    expect(() => resolve({ "json-rpc.api": "eth,foo" })).to.throw("unknown JSON-RPC namespace 'foo' in json-rpc.api");
    expect(() => resolve({ "json-rpc.api": "eth,eth" })).to.throw("repeated API namespace 'eth'");
    expect(() => resolve({ "json-rpc.api": " , " })).to.throw("cannot enable JSON-RPC without defining any API namespace");
  });

  it("maps the cap and timeout flags onto the chain, the dispatcher and the server (app.toml keys use the same names)", () => {
    const c = resolve({
      "json-rpc.gas-cap": "1000000",
      "json-rpc.logs-cap": "5",
      "json-rpc.block-range-cap": "7",
      "json-rpc.filter-cap": "3",
      "json-rpc.evm-timeout": "1m30s",
      "json-rpc.allow-unprotected-txs": true,
      "json-rpc.batch-request-limit": "4",
    });
    const r = runtimeSettings(c);
    expect(r.rpc).to.deep.include({ gasCap: 1_000_000n, logsCap: 5, blockRangeCap: 7, filterCap: 3, evmTimeoutMs: 90_000, allowUnprotectedTxs: true });
    expect(r.chain.gasCap).to.equal(1_000_000n); // where eth_call reads it
    expect(r.maxBatch).to.equal(4);
    expect(serverSettings(c)).to.deep.include({ batchLimit: 4, host: "127.0.0.1", port: 8545 });
    expect(() => resolve({ "json-rpc.logs-cap": "-1" })).to.throw("command line: --json-rpc.logs-cap: JSON-RPC logs cap cannot be negative");
  });

  it("reads app.toml below the command line; --port wins over the file's address", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "apptoml-"));
    try {
      const file = path.join(dir, "app.toml");
      fs.writeFileSync(
        file,
        'minimum-gas-prices = "20aevmos"\n[json-rpc]\napi = "eth,net"\nlogs-cap = 50\naddress = "127.0.0.2:9000"\nbody-limit = 1000\nauth-token = "t0k"\n[epochs]\ntick-rule = "evmos"\n',
      );
      const app = readAppToml(file);
      const c = resolve({ "json-rpc.logs-cap": "9", port: "9100" }, app);
      expect(runtimeSettings(c)).to.deep.include({
        chain: { gasCap: defaults.jsonRpc.gasCap, minGasPrice: 20n, txPool: defaults.txpool },
        epochs: { profile: "evmos", tickRule: "evmos", hookGasLimit: 3_000_000n },
      });
      expect(runtimeSettings(c).rpc.logsCap).to.equal(9);
      expect(serverSettings(c)).to.deep.include({ host: "127.0.0.2", port: 9100, bodyLimit: 1000, authToken: "t0k" });
      fs.writeFileSync(file, "[json-rpc\n");
      expect(() => readAppToml(file)).to.throw(`${file}: not valid TOML`);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
