/** Anvil's chain flags of `node` (src/host/settings/chain-flags.ts), as both hosts hand them to the node service. */
import { expect } from "chai";
import { HDNodeWallet, getAddress } from "ethers";
import { DEFAULT_ACCOUNT_BALANCE, defaultChainConfig } from "../../src/chain/config";
import { addressOfKey } from "../../src/chain/base/crypto";
import { applyChainFlags } from "../../src/host/settings/chain-flags";

const OTHER = "candy maple cake sugar pudding cream honey rich smooth crumble sweet treat";
const addressesOf = (accounts: Array<{ privateKey: Uint8Array }>): string[] => accounts.map((a) => getAddress(addressOfKey(a.privateKey).toString()));
const derived = (mnemonic: string, n: number, start = 0): string[] => Array.from({ length: n }, (_, i) => HDNodeWallet.fromPhrase(mnemonic, undefined, `m/44'/60'/0'/0/${start + i}`).address);

describe("node: Anvil's chain flags (--chain-id, --block-time, --accounts, --mnemonic, --balance)", () => {
  const chain = defaultChainConfig();

  it('leaves the chain as the config gives it when no flag is given (hosts pass undefined, "" or -1)', () => {
    expect(applyChainFlags(chain, undefined, { chainId: -1, blockTime: undefined, accounts: "", mnemonic: undefined, balance: "" })).to.deep.equal(chain);
  });

  it("--chain-id sets the chain id; --block-time S mines a block every S seconds, without automine", () => {
    const out = applyChainFlags(chain, undefined, { chainId: "777", blockTime: "0.5" });
    expect(out.chainId).to.equal(777n);
    expect(out.mining).to.deep.include({ auto: false, interval: 500 });
    expect(applyChainFlags(chain, undefined, { chainId: 31337, blockTime: 2 }).mining).to.deep.include({ auto: false, interval: 2000 });
  });

  it("--mnemonic and --accounts derive the dev accounts anew, from the config's HD settings, the flags over them", () => {
    const out = applyChainFlags(chain, {}, { mnemonic: `  ${OTHER.split(" ").join("   ")} `, accounts: "3", balance: "5" });
    expect(addressesOf(out.accounts)).to.deep.equal(derived(OTHER, 3));
    expect(out.accounts.map((a) => a.balance)).to.deep.equal([5n * 10n ** 18n, 5n * 10n ** 18n, 5n * 10n ** 18n]);
    // the config's mnemonic and initial index stay; --accounts sets the count
    const fromConfig = applyChainFlags(chain, { mnemonic: OTHER, initialIndex: 2, count: 7 }, { accounts: 2 });
    expect(addressesOf(fromConfig.accounts)).to.deep.equal(derived(OTHER, 2, 2));
    expect(fromConfig.accounts[0].balance).to.equal(DEFAULT_ACCOUNT_BALANCE);
    // a config with a key list: --mnemonic replaces it, as many accounts as it had
    const keys = chain.accounts.slice(0, 4);
    expect(addressesOf(applyChainFlags({ ...chain, accounts: keys }, undefined, { mnemonic: OTHER }).accounts)).to.deep.equal(derived(OTHER, 4));
  });

  it("--balance alone funds the accounts the config gives, in ether", () => {
    const out = applyChainFlags(chain, {}, { balance: "0.25" });
    expect(addressesOf(out.accounts)).to.deep.equal(addressesOf(chain.accounts));
    expect(new Set(out.accounts.map((a) => a.balance))).to.deep.equal(new Set([25n * 10n ** 16n]));
  });

  it("refuses a bad value with the flag's name and what it expects", () => {
    const bad: Array<[Parameters<typeof applyChainFlags>[2], RegExp]> = [
      [{ chainId: "0" }, /^--chain-id: expected a positive integer, got "0"$/],
      [{ chainId: "0x10" }, /^--chain-id: expected a positive integer/],
      [{ blockTime: "0" }, /^--block-time: expected seconds greater than 0 \(e\.g\. 2 or 0\.5\), got "0"$/],
      [{ blockTime: "1s" }, /^--block-time: expected seconds/],
      [{ accounts: "-2" }, /^--accounts: expected a positive integer/],
      [{ accounts: "1001" }, /^--accounts: at most 1000, got 1001$/],
      [{ balance: "lots" }, /^--balance: expected an amount of ether \(e\.g\. 10000 or 0\.5\), got "lots"$/],
      [{ balance: "-1" }, /^--balance: expected an amount of ether/],
      [{ mnemonic: "test test test" }, /^--mnemonic: not a valid BIP-39 mnemonic \(its words or checksum\)$/],
    ];
    for (const [flags, message] of bad) expect(() => applyChainFlags(chain, undefined, flags), JSON.stringify(flags)).to.throw(message);
  });
});
