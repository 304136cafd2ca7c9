import { expect } from "chai";
import { Wallet } from "ethers";
import { DEFAULT_MNEMONIC, defaultChainConfig } from "../../src/chain/config";
import { EpochsConfigError } from "../../src/host/settings/epochs-config";
import { chainConfigFromNetworkSettings, parseNetworkSettings } from "../../src/host/settings/network-settings";

const hex = (b: Uint8Array): string => `0x${Buffer.from(b).toString("hex")}`;

describe("Hardhat 3's epochs.network settings", function () {
  it("gives the default chain, with the network's chain id, when there are none", () => {
    const config = chainConfigFromNetworkSettings(parseNetworkSettings(undefined), 1234);
    expect(config).to.deep.equal({ ...defaultChainConfig(), chainId: 1234n });
  });

  it("maps Hardhat's simulated-network keys onto the chain", () => {
    const config = chainConfigFromNetworkSettings(
      parseNetworkSettings({
        chainId: 31337,
        hardfork: "merge",
        blockGasLimit: 30_000_000,
        initialBaseFeePerGas: "0x0",
        minGasPrice: 7n,
        coinbase: "0x00000000000000000000000000000000000000aa",
        initialDate: "2024-01-01T00:00:00Z",
        allowUnlimitedContractSize: true,
        allowBlocksWithSameTimestamp: true,
        throwOnTransactionFailures: false,
        mining: { auto: false, interval: [100, 200], mempool: { order: "fifo" } },
        accounts: { count: 2, accountsBalance: "5" },
      }),
      9000,
    );
    expect(config.chainId).to.equal(31337n);
    expect(config.hardfork).to.equal("paris");
    expect(config.blockGasLimit).to.equal(30_000_000n);
    expect(config.initialBaseFeePerGas).to.equal(0n);
    expect(config.minGasPrice).to.equal(7n);
    expect(hex(config.coinbase)).to.equal("0x00000000000000000000000000000000000000aa");
    expect(config.initialDate?.toISOString()).to.equal("2024-01-01T00:00:00.000Z");
    expect([config.allowUnlimitedContractSize, config.allowBlocksWithSameTimestamp, config.throwOnTransactionFailures]).to.deep.equal([true, true, false]);
    expect(config.mining).to.deep.equal({ auto: false, interval: [100, 200], order: "fifo" });
    expect(config.accounts.map((a) => a.balance)).to.deep.equal([5n, 5n]);
    // Hardhat's first dev account of the default mnemonic
    expect(hex(config.accounts[0].privateKey)).to.equal(Wallet.fromPhrase(DEFAULT_MNEMONIC).privateKey);
  });

  it("keeps the defaults a partial setting leaves out", () => {
    const config = chainConfigFromNetworkSettings(parseNetworkSettings({ mining: { auto: false } }), 9000);
    expect(config.mining).to.deep.equal({ ...defaultChainConfig().mining, auto: false });
    expect(config.accounts).to.deep.equal(defaultChainConfig().accounts);
  });

  it("takes accounts as keys with balances", () => {
    const key = `0x${"11".repeat(32)}`;
    const config = chainConfigFromNetworkSettings(parseNetworkSettings({ accounts: [{ privateKey: key, balance: "1000" }] }), 9000);
    expect(config.accounts.map((a) => [hex(a.privateKey), a.balance])).to.deep.equal([[key, 1000n]]);
  });

  const bad: Array<[string, unknown, RegExp]> = [
    ["an unknown key", { gasPrice: 1 }, /unknown key epochs\.network\.gasPrice: expected one of chainId, hardfork/],
    ["a negative chain id", { chainId: -1 }, /invalid epochs\.network\.chainId -1: expected a positive integer/],
    ["a fractional gas limit", { blockGasLimit: 1.5 }, /invalid epochs\.network\.blockGasLimit 1\.5/],
    ["a short coinbase", { coinbase: "0x12" }, /invalid epochs\.network\.coinbase "0x12": expected a 0x-prefixed 20-byte hex string/],
    ["a bad date", { initialDate: "yesterday" }, /invalid epochs\.network\.initialDate "yesterday"/],
    ["a string flag", { allowBlocksWithSameTimestamp: "yes" }, /invalid epochs\.network\.allowBlocksWithSameTimestamp "yes": expected true or false/],
    ["a reversed interval", { mining: { interval: [200, 100] } }, /invalid epochs\.network\.mining\.interval \[200,100\]/],
    ["an unknown mempool order", { mining: { mempool: { order: "random" } } }, /invalid epochs\.network\.mining\.mempool\.order "random"/],
    ["a short private key", { accounts: [{ privateKey: "0x01", balance: 1 }] }, /invalid epochs\.network\.accounts\[0\]\.privateKey/],
    ["an unknown HD key", { accounts: { mnemonics: "x" } }, /unknown key epochs\.network\.accounts\.mnemonics/],
  ];
  for (const [what, settings, message] of bad) {
    it(`refuses ${what} with a message that names the key`, () => {
      expect(() => parseNetworkSettings(settings as never)).to.throw(EpochsConfigError, message);
    });
  }
});
