/**
 * The personal namespace and the signing paths of eth over the key store, in-process and over HTTP
 * with the bearer token: every method, geth's error texts, the lock state machine, and refused
 * calls leaving no trace.
 */
import { expect } from "chai";
import { Transaction, Wallet, computeAddress, getAddress, verifyMessage, verifyTypedData } from "ethers";
import { type Harness, rpcError } from "../helpers/harness";
import { harnesses } from "../helpers/matrix";

const KEY = "0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318";
const KEY_ADDR = computeAddress(KEY).toLowerCase();
const ONE_ETH = "0xde0b6b3a7640000";

const typedData = {
  types: {
    EIP712Domain: [
      { name: "name", type: "string" },
      { name: "chainId", type: "uint256" },
    ],
    Mail: [
      { name: "to", type: "address" },
      { name: "contents", type: "string" },
    ],
  },
  primaryType: "Mail",
  domain: { name: "keys", chainId: 9000 },
  message: { to: "0x000000000000000000000000000000000000dEaD", contents: "hello" },
};

for (const make of harnesses()) {
  describe(`personal namespace on the key store (${make.name})`, function () {
    this.timeout(120_000);
    let h: Harness;
    let dev: string[];
    /** A key-store account made by personal_newAccount, funded from a dev account. */
    let fresh: string;

    const receipt = (hash: string) => h.request<{ status: string; from: string } | null>("eth_getTransactionReceipt", [hash]);
    const nonceOf = (a: string) => h.request<string>("eth_getTransactionCount", [a, "latest"]);

    before(async () => {
      h = await make.create({ keystore: { scrypt: "light" } });
      dev = await h.request<string[]>("eth_accounts");
      fresh = await h.request<string>("personal_newAccount", ["fresh-pass"]);
      await h.request("eth_sendTransaction", [{ from: dev[0], to: fresh, value: ONE_ETH }]);
    });
    after(() => h.close());

    it("newAccount answers a checksummed address that eth_accounts lists after the dev accounts", async () => {
      expect(fresh).to.equal(getAddress(fresh));
      const accounts = await h.request<string[]>("eth_accounts");
      expect(accounts.slice(0, dev.length - 1)).to.deep.equal(dev.slice(0, dev.length - 1));
      expect(accounts).to.include(fresh.toLowerCase());
      expect(accounts.indexOf(fresh.toLowerCase())).to.be.greaterThan(accounts.indexOf(dev[dev.length - 1]) - 1);
      expect(await h.request<string[]>("personal_listAccounts")).to.include(fresh.toLowerCase());
    });

    it("importRawKey takes the key with or without 0x and refuses a second import with geth's text", async () => {
      expect(await h.request("personal_importRawKey", [KEY.slice(2), "import-pass"])).to.equal(KEY_ADDR);
      const again = await rpcError(h.request("personal_importRawKey", [KEY, "other"]));
      expect(again).to.deep.include({ code: -32000, message: "account already exists" });
      expect(await h.request<string[]>("personal_listAccounts")).to.include(KEY_ADDR);
    });

    it("importRawKey refuses bad keys with geth's texts", async () => {
      const cases: Array<[string, string]> = [
        ["0x" + "zz".repeat(32), "invalid hex character 'z' in private key"],
        ["abc", "invalid hex data for private key"],
        ["ab".repeat(31), "invalid length, need 256 bits"],
        ["00".repeat(32), "invalid private key, zero or negative"],
        ["ff".repeat(32), "invalid private key, >=N"],
      ];
      for (const [key, message] of cases) expect(await rpcError(h.request("personal_importRawKey", [key, "p"]))).to.deep.include({ code: -32000, message });
      const missing = await rpcError(h.request("personal_importRawKey", [KEY]));
      expect(missing).to.deep.include({ code: -32602, message: "missing value for required argument 1" });
    });

    it("a locked account cannot sign or send; unlock opens it, lock closes it again", async () => {
      const locked = { code: -32000, message: "authentication needed: password or unlock" };
      const tx = { from: fresh, to: dev[1], value: "0x1" };
      const before = await nonceOf(fresh);
      expect(await rpcError(h.request("eth_sendTransaction", [tx]))).to.deep.include(locked);
      expect(await rpcError(h.request("eth_sign", [fresh, "0x1234"]))).to.deep.include(locked);
      expect(await rpcError(h.request("eth_signTransaction", [tx]))).to.deep.include(locked);
      expect(await rpcError(h.request("eth_signTypedData_v4", [fresh, typedData]))).to.deep.include(locked);
      expect(await nonceOf(fresh)).to.equal(before);

      expect(await h.request("personal_unlockAccount", [fresh, "fresh-pass", 60])).to.equal(true);
      const hash = await h.request<string>("eth_sendTransaction", [tx]);
      const r = await receipt(hash);
      expect(r).to.include({ status: "0x1", from: fresh.toLowerCase() });
      const sig = await h.request<string>("eth_sign", [fresh, "0x68656c6c6f"]);
      expect(verifyMessage("hello", sig)).to.equal(fresh);
      const tsig = await h.request<string>("eth_signTypedData_v4", [fresh, typedData]);
      const { EIP712Domain: _d, ...types } = typedData.types;
      expect(verifyTypedData(typedData.domain, types, typedData.message, tsig)).to.equal(fresh);
      const raw = await h.request<string>("eth_signTransaction", [{ ...tx, nonce: "0x7" }]);
      expect(Transaction.from(raw).from).to.equal(fresh);

      expect(await h.request("personal_lockAccount", [fresh])).to.equal(true);
      expect(await rpcError(h.request("eth_sign", [fresh, "0x1234"]))).to.deep.include(locked);
    });

    it("a wrong passphrase answers geth's text and changes nothing", async () => {
      const wrong = { code: -32000, message: "could not decrypt key with given password" };
      expect(await rpcError(h.request("personal_unlockAccount", [fresh, "nope"]))).to.deep.include(wrong);
      expect(await rpcError(h.request("eth_sign", [fresh, "0x12"]))).to.deep.include({ message: "authentication needed: password or unlock" });
      // an unlocked account stays unlocked after a failed attempt
      await h.request("personal_unlockAccount", [fresh, "fresh-pass", 0]);
      expect(await rpcError(h.request("personal_unlockAccount", [fresh, "nope", 5]))).to.deep.include(wrong);
      expect(await h.request<string>("eth_sign", [fresh, "0x12"])).to.match(/^0x[0-9a-f]{130}$/);
      await h.request("personal_lockAccount", [fresh]);

      const n = await nonceOf(fresh);
      expect(await rpcError(h.request("personal_sendTransaction", [{ from: fresh, to: dev[1], value: "0x1" }, "nope"]))).to.deep.include(wrong);
      expect(await rpcError(h.request("personal_sign", ["0x12", fresh, "nope"]))).to.deep.include(wrong);
      expect(await nonceOf(fresh)).to.equal(n);
      expect(await h.request("txpool_status")).to.deep.equal({ pending: "0x0", queued: "0x0" });
    });

    it("unlock checks the account and the duration (geth's texts)", async () => {
      const unknown = "0x" + "12".repeat(20);
      expect(await rpcError(h.request("personal_unlockAccount", [unknown, "x", 10]))).to.deep.include({ code: -32000, message: "no key for given address or file" });
      expect(await rpcError(h.request("personal_unlockAccount", [fresh, "fresh-pass", 9223372037]))).to.deep.include({ code: -32000, message: "unlock duration too large" });
      expect(await rpcError(h.request("personal_unlockAccount", [fresh, "fresh-pass", -1]))).to.include({ code: -32602 });
      expect(await rpcError(h.request("personal_unlockAccount", [dev[2], "", 9223372037]))).to.deep.include({ message: "unlock duration too large" });
      // the largest duration geth accepts, also as a hex quantity
      expect(await h.request("personal_unlockAccount", [fresh, "fresh-pass", "0x225c17d04"])).to.equal(true);
      await h.request("personal_lockAccount", [fresh]);
      // dev accounts are always usable: unlock answers true, lock false (they stay usable)
      expect(await h.request("personal_unlockAccount", [dev[2], "", 10])).to.equal(true);
      expect(await h.request("personal_lockAccount", [dev[2]])).to.equal(false);
      expect(await h.request("personal_lockAccount", [unknown])).to.equal(false);
    });

    it("concurrent key derivations each get their own answer while the chain keeps serving", async () => {
      const results = await Promise.allSettled([
        h.request("personal_unlockAccount", [fresh, "fresh-pass", 30]),
        h.request("personal_unlockAccount", [fresh, "wrong", 30]),
        h.request("personal_sign", ["0x01", KEY_ADDR, "import-pass"]),
        h.request("eth_blockNumber"),
        h.request("personal_unlockAccount", [KEY_ADDR, "nope", 30]),
      ]);
      expect(results.map((r) => r.status)).to.deep.equal(["fulfilled", "rejected", "fulfilled", "fulfilled", "rejected"]);
      expect((results[1] as PromiseRejectedResult).reason.message).to.equal("could not decrypt key with given password");
      expect(verifyMessage(new Uint8Array([1]), (results[2] as PromiseFulfilledResult<string>).value).toLowerCase()).to.equal(KEY_ADDR);
      await h.request("personal_lockAccount", [fresh]);
    });

    it("an unlock expires on the real clock, within a second of its due time", async function () {
      this.timeout(20_000);
      expect(await h.request("personal_unlockAccount", [fresh, "fresh-pass", 1])).to.equal(true);
      expect(await h.request<string>("eth_sign", [fresh, "0x01"])).to.match(/^0x/);
      // moving the chain's clock does not end it
      await h.request("evm_increaseTime", [3600]);
      await h.request("evm_mine");
      expect(await h.request<string>("eth_sign", [fresh, "0x01"])).to.match(/^0x/);
      await new Promise((r) => setTimeout(r, 2000));
      expect(await rpcError(h.request("eth_sign", [fresh, "0x01"]))).to.deep.include({ message: "authentication needed: password or unlock" });
      const wallets = await h.request<Array<{ status: string; accounts: Array<{ address: string }> }>>("personal_listWallets");
      expect(wallets.find((w) => w.accounts[0].address === fresh.toLowerCase())?.status).to.equal("Locked");
    });

    it("sendTransaction signs with the passphrase without unlocking, and is mined", async () => {
      const hash = await h.request<string>("personal_sendTransaction", [{ from: fresh, to: dev[3], value: "0x5" }, "fresh-pass"]);
      expect(await receipt(hash)).to.include({ status: "0x1", from: fresh.toLowerCase() });
      expect(await rpcError(h.request("eth_sendTransaction", [{ from: fresh, to: dev[3] }]))).to.deep.include({ message: "authentication needed: password or unlock" });
      // a dev account's key is public: its passphrase is not checked
      const devHash = await h.request<string>("personal_sendTransaction", [{ from: dev[4], to: dev[3], value: "0x5" }, ""]);
      expect(await receipt(devHash)).to.include({ status: "0x1" });
      const unknown = await rpcError(h.request("personal_sendTransaction", [{ to: dev[3] }, "x"]));
      expect(unknown).to.deep.include({ code: -32000, message: "unknown account" });
    });

    it("signTransaction answers {raw, tx} and requires gas, fees and nonce (geth)", async () => {
      const base = { from: fresh, to: dev[5], value: "0x9", gas: "0x5208", maxFeePerGas: "0x77359400", maxPriorityFeePerGas: "0x3b9aca00", nonce: "0x3" };
      const out = await h.request<{ raw: string; tx: Record<string, string> }>("personal_signTransaction", [base, "fresh-pass"]);
      const parsed = Transaction.from(out.raw);
      expect(parsed.from).to.equal(fresh);
      expect(parsed.nonce).to.equal(3);
      expect(out.tx).to.include({ hash: parsed.hash, nonce: "0x3", gas: "0x5208", type: "0x2", to: dev[5] });
      expect(out.tx).to.not.have.property("blockHash");
      const { gas: _g, ...noGas } = base;
      expect(await rpcError(h.request("personal_signTransaction", [noGas, "fresh-pass"]))).to.deep.include({ message: "gas not specified" });
      const { maxFeePerGas: _f, ...noFee } = base;
      expect(await rpcError(h.request("personal_signTransaction", [noFee, "fresh-pass"]))).to.deep.include({ message: "missing gasPrice or maxFeePerGas/maxPriorityFeePerGas" });
      const { nonce: _n, ...noNonce } = base;
      expect(await rpcError(h.request("personal_signTransaction", [noNonce, "fresh-pass"]))).to.deep.include({ message: "nonce not specified" });
      expect(await rpcError(h.request("personal_signTransaction", [base, "bad"]))).to.deep.include({ message: "could not decrypt key with given password" });
    });

    it("sign (EIP-191) round-trips with ecRecover and ethers.verifyMessage", async () => {
      const data = "0x" + Buffer.from("hardhat-epochs").toString("hex");
      const sig = await h.request<string>("personal_sign", [data, fresh, "fresh-pass"]);
      expect(verifyMessage("hardhat-epochs", sig)).to.equal(fresh);
      expect(await h.request("personal_ecRecover", [data, sig])).to.equal(fresh.toLowerCase());
      // Hardhat's form: no password, a dev account
      const devSig = await h.request<string>("personal_sign", [data, dev[6]]);
      expect(await h.request("personal_ecRecover", [data, devSig])).to.equal(dev[6]);
      expect(devSig).to.equal(await h.request("eth_sign", [dev[6], data]));
      // without a password a key-store account must be unlocked
      expect(await rpcError(h.request("personal_sign", [data, fresh]))).to.deep.include({ message: "authentication needed: password or unlock" });
      expect(await rpcError(h.request("personal_sign", [data, "0x" + "34".repeat(20), "x"]))).to.deep.include({ message: "unknown account" });
    });

    it("ecRecover checks the signature's length and V with geth's texts", async () => {
      const sig = await h.request<string>("personal_sign", ["0x01", dev[0]]);
      expect(await rpcError(h.request("personal_ecRecover", ["0x01", sig.slice(0, -2)]))).to.deep.include({ code: -32000, message: "signature must be 65 bytes long" });
      expect(await rpcError(h.request("personal_ecRecover", ["0x01", sig.slice(0, -2) + "1d"]))).to.deep.include({ code: -32000, message: "invalid Ethereum signature (V is not 27 or 28)" });
      expect(await rpcError(h.request("personal_ecRecover", ["0x01", "0x" + "00".repeat(64) + "1b"]))).to.include({ code: -32000 });
    });

    it("listWallets has geth's shape; smartcard methods say why they cannot work", async () => {
      const wallets = await h.request<Array<{ url: string; status: string; accounts: Array<{ address: string; url: string }> }>>("personal_listWallets");
      const w = wallets.find((x) => x.accounts[0].address === KEY_ADDR);
      expect(w?.status).to.equal("Locked");
      expect(w?.url).to.match(/^keystore:\/\/memory\/UTC--\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d\.\d{9}Z--[0-9a-f]{40}$/);
      expect(w?.accounts[0].url).to.equal(w?.url);
      await h.request("personal_unlockAccount", [KEY_ADDR, "import-pass", 30]);
      expect((await h.request<typeof wallets>("personal_listWallets")).find((x) => x.url === w?.url)?.status).to.equal("Unlocked");
      await h.request("personal_lockAccount", [KEY_ADDR]);
      expect(await rpcError(h.request("personal_initializeWallet", [w?.url]))).to.deep.include({ code: -32000, message: "specified wallet does not support initialization" });
      expect(await rpcError(h.request("personal_unpair", [w?.url, "1234"]))).to.deep.include({ code: -32000, message: "specified wallet does not support pairing" });
      const other = await rpcError(h.request("personal_initializeWallet", ["pcsc://reader"]));
      expect(other.message).to.match(/^unknown wallet: pcsc:\/\/reader \(this node has no smartcard/);
      expect((await rpcError(h.request("personal_unpair", ["pcsc://reader", "1"]))).message).to.match(/^unknown wallet/);
    });

    it("a key imported and unlocked signs like a wallet holding it", async () => {
      await h.request("personal_unlockAccount", [KEY_ADDR, "import-pass"]);
      try {
        const sig = await h.request<string>("eth_sign", [KEY_ADDR, "0x6869"]);
        expect(sig).to.equal(await new Wallet(KEY).signMessage("hi"));
      } finally {
        await h.request("personal_lockAccount", [KEY_ADDR]);
      }
    });
  });

  describe(`allow-insecure-unlock = false (${make.name})`, function () {
    this.timeout(60_000);
    let h: Harness;
    let dev: string[];
    before(async () => {
      h = await make.create({ keystore: { scrypt: "light" }, rpc: { allowInsecureUnlock: false } });
      dev = [...h.runtime.deps.node.keys.keys()];
    });
    after(() => h.close());

    it("refuses Evmos's gated methods and geth's unlock with their text; eth_sign stays open", async () => {
      const forbidden = { code: -32000, message: "account unlock with HTTP access is forbidden" };
      const addr = await h.request<string>("personal_newAccount", ["p"]);
      expect(await rpcError(h.request("eth_accounts"))).to.deep.include(forbidden);
      expect(await rpcError(h.request("personal_listAccounts"))).to.deep.include(forbidden);
      expect(await rpcError(h.request("eth_sendTransaction", [{ from: dev[0], to: dev[1] }]))).to.deep.include(forbidden);
      expect(await rpcError(h.request("personal_sendTransaction", [{ from: addr, to: dev[1] }, "p"]))).to.deep.include(forbidden);
      expect(await rpcError(h.request("personal_unlockAccount", [addr, "p"]))).to.deep.include(forbidden);
      expect(await h.request<string>("eth_sign", [dev[0], "0x01"])).to.match(/^0x/);
      expect(await h.request("txpool_status")).to.deep.equal({ pending: "0x0", queued: "0x0" });
    });
  });
}
