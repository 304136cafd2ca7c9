/**
 * The key store on a real directory: file format and names, permissions, files written by geth and
 * by ethers, corrupt and foreign files, the lock state machine on the real clock, and reopening.
 */
import { expect } from "chai";
import { createCipheriv, randomBytes, randomUUID, scryptSync } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Wallet, computeAddress, hexlify, keccak256 } from "ethers";
import { AccountExistsError, DurationTooLargeError, KeyStore, LockedError, MAX_UNLOCK_SECONDS, NoKeyError, STANDARD_SCRYPT, WrongPassphraseError, scryptParams } from "../../src/keystore";
import { DirectoryStorage } from "../../src/keystore/storage";

const GETH_NAME = /^UTC--\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d\.\d{9}Z--[0-9a-f]{40}$/;

/** A key file built the way geth builds one (scrypt, AES-128-CTR, Keccak-256 MAC), with Node's own crypto, not ethers. */
function gethKeyFile(key: Buffer, password: string, n = 1024, r = 8, p = 1): string {
  const salt = randomBytes(32);
  const iv = randomBytes(16);
  const dk = scryptSync(Buffer.from(password, "utf8"), salt, 32, { N: n, r, p });
  const cipher = createCipheriv("aes-128-ctr", dk.subarray(0, 16), iv);
  const ciphertext = Buffer.concat([cipher.update(key), cipher.final()]);
  const mac = keccak256(Buffer.concat([dk.subarray(16, 32), ciphertext])).slice(2);
  const address = computeAddress(hexlify(key)).slice(2).toLowerCase();
  return JSON.stringify({
    address,
    crypto: {
      cipher: "aes-128-ctr",
      ciphertext: ciphertext.toString("hex"),
      cipherparams: { iv: iv.toString("hex") },
      kdf: "scrypt",
      kdfparams: { dklen: 32, n, p, r, salt: salt.toString("hex") },
      mac,
    },
    id: randomUUID(),
    version: 3,
  });
}

/** A file from geth's own keystore test data (password "foobar"). */
const GETH_TESTDATA =
  '{"address":"f466859ead1932d743d622cb74fc058882e8648a","crypto":{"cipher":"aes-128-ctr","ciphertext":"cb664472deacb41a2e995fa7f96fe29ce744471deb8d146a0e43c7898c9ddd4d","cipherparams":{"iv":"dfd9ee70812add5f4b8f89d0811c9158"},"kdf":"scrypt","kdfparams":{"dklen":32,"n":8,"p":16,"r":8,"salt":"0d6769bf016d45c479213990d6a08d938469c4adad8a02ce507b4a4e7b7739f1"},"mac":"bac9af994b15a45dd39669fc66f9aa8a3b9dd8c22cb16e4d8d7ea089d0f1a1a9"},"id":"472e8b3d-afb6-45b5-8111-72c89895099a","version":3}';

/** The Web3 Secret Storage definition's PBKDF2 test vector (password "testpassword"), with the address field geth adds. */
const PBKDF2_VECTOR_KEY = "0x7a28b5ba57c53603b0b07b56bba752f7784bf506fa95edc395f5cf6c7514fe9d";
const PBKDF2_VECTOR = JSON.stringify({
  address: computeAddress(PBKDF2_VECTOR_KEY).slice(2).toLowerCase(),
  crypto: {
    cipher: "aes-128-ctr",
    cipherparams: { iv: "6087dab2f9fdbbfaddc31a909735c1e6" },
    ciphertext: "5318b4d5bcd28de64ee5559e671353e16f075ecae9f99c7a79a38af5f869aa46",
    kdf: "pbkdf2",
    kdfparams: { c: 262144, dklen: 32, prf: "hmac-sha256", salt: "ae3cd4e7013836a3df6bd7241b12db061dbe2c6785853cce422d148a624ce0bd" },
    mac: "517ead924a9d0dc3124507e3393d175ce3ff7c1e96529c6c555ce9e51205e9b2",
  },
  id: "3198bc9c-6672-5ab3-d995-4942343ae5b6",
  version: 3,
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function rejection(p: Promise<unknown>): Promise<Error> {
  try {
    await p;
  } catch (err) {
    return err as Error;
  }
  throw new Error("expected a rejection");
}

describe("key store", function () {
  this.timeout(60_000);
  let dir: string;
  beforeEach(() => {
    dir = path.join(mkdtempSync(path.join(tmpdir(), "epochs-keys-")), "keystore");
  });
  afterEach(() => rmSync(path.dirname(dir), { recursive: true, force: true }));

  it("writes one owner-only file per key, named and laid out as geth does, that ethers decrypts", async () => {
    const ks = await KeyStore.open({ dir, scrypt: "light" });
    const address = await ks.newAccount("pässword");
    const files = readdirSync(dir);
    expect(files).to.have.length(1);
    expect(files[0]).to.match(GETH_NAME);
    expect(files[0].endsWith(address.slice(2))).to.equal(true);
    expect(statSync(path.join(dir, files[0])).mode & 0o777).to.equal(0o600);
    expect(statSync(dir).mode & 0o777).to.equal(0o700);
    const text = readFileSync(path.join(dir, files[0]), "utf8");
    const json = JSON.parse(text);
    expect(Object.keys(json)).to.deep.equal(["address", "crypto", "id", "version"]);
    expect(json.version).to.equal(3);
    expect(json.address).to.equal(address.slice(2));
    expect(json.crypto.kdfparams).to.include({ n: 4096, r: 8, p: 6, dklen: 32 });
    expect(json.crypto.cipher).to.equal("aes-128-ctr");
    const wallet = await Wallet.fromEncryptedJson(text, "pässword");
    expect(wallet.address.toLowerCase()).to.equal(address);
    ks.close();
  });

  it("uses geth's standard scrypt parameters by default", async () => {
    expect(scryptParams(undefined)).to.deep.equal({ N: 262144, r: 8, p: 1 });
    const ks = await KeyStore.open({});
    expect(ks.scrypt).to.deep.equal(STANDARD_SCRYPT);
    expect(ks.dir).to.equal(undefined);
    const address = await ks.newAccount("standard");
    expect(ks.accounts()).to.deep.equal([address]);
    expect(() => scryptParams({ N: 1000, r: 8, p: 1 })).to.throw(/power of two/);
    ks.close();
  });

  it("loads files written by geth (its layout and its test data), by ethers and the spec's PBKDF2 vector", async () => {
    mkdirSync(dir, { recursive: true });
    const gethKey = randomBytes(32);
    const gethAddr = computeAddress(hexlify(gethKey)).toLowerCase();
    writeFileSync(path.join(dir, `UTC--2024-01-02T03-04-05.123456789Z--${gethAddr.slice(2)}`), gethKeyFile(gethKey, "geth-pass"), { mode: 0o600 });
    writeFileSync(path.join(dir, "aaa"), GETH_TESTDATA);
    const ethersWallet = Wallet.createRandom();
    writeFileSync(path.join(dir, "ethers.json"), await ethersWallet.encrypt("ethers-pass"));
    writeFileSync(path.join(dir, "vector"), PBKDF2_VECTOR);

    const skipped: string[] = [];
    const ks = await KeyStore.open({ dir, scrypt: "light", onSkipped: (f) => skipped.push(f) });
    expect(skipped).to.deep.equal([]);
    const vectorAddr = computeAddress(PBKDF2_VECTOR_KEY).toLowerCase();
    expect(ks.accounts()).to.have.members([gethAddr, "0xf466859ead1932d743d622cb74fc058882e8648a", ethersWallet.address.toLowerCase(), vectorAddr]);

    await ks.unlock(gethAddr, "geth-pass", 0n);
    expect(hexlify(ks.unlockedKey(gethAddr))).to.equal(hexlify(gethKey));
    await ks.unlock("0xf466859ead1932d743d622cb74fc058882e8648a", "foobar", 0n);
    expect(computeAddress(hexlify(ks.unlockedKey("0xf466859ead1932d743d622cb74fc058882e8648a"))).toLowerCase()).to.equal("0xf466859ead1932d743d622cb74fc058882e8648a");
    expect(hexlify(await ks.decrypt(ethersWallet.address, "ethers-pass"))).to.equal(ethersWallet.privateKey);
    expect(hexlify(await ks.decrypt(vectorAddr, "testpassword"))).to.equal(PBKDF2_VECTOR_KEY);
    expect(await rejection(ks.decrypt(vectorAddr, "wrong"))).to.be.instanceOf(WrongPassphraseError);
    ks.close();
  });

  it("skips corrupt and foreign files, reports each by name, and never rewrites them", async () => {
    mkdirSync(dir, { recursive: true });
    const good = gethKeyFile(randomBytes(32), "pw");
    const goodAddr = JSON.parse(good).address as string;
    const bad: Record<string, string> = {
      garbage: "\u0000\u0001 not a key",
      empty: "",
      "no-address": GETH_TESTDATA.replace('"address":"f466859ead1932d743d622cb74fc058882e8648a",', ""),
      "v1-file": JSON.stringify({ ...JSON.parse(GETH_TESTDATA), version: 1 }),
      "wrong-cipher": GETH_TESTDATA.replace("aes-128-ctr", "aes-128-cbc"),
      "bad-kdf": GETH_TESTDATA.replace('"kdf":"scrypt"', '"kdf":"argon2"'),
      "huge-n": GETH_TESTDATA.replace('"n":8', '"n":33554432'),
      "package.json": '{"name":"not-a-key"}',
      [`UTC--2099-01-01T00-00-00.000000000Z--${goodAddr}`]: good,
    };
    writeFileSync(path.join(dir, `UTC--2000-01-01T00-00-00.000000000Z--${goodAddr}`), good);
    for (const [name, text] of Object.entries(bad)) writeFileSync(path.join(dir, name), text);
    // geth ignores these without a word: hidden files, editor backups, folders
    writeFileSync(path.join(dir, ".hidden"), "x");
    writeFileSync(path.join(dir, "swapfile~"), "x");
    mkdirSync(path.join(dir, "folder"));
    const before = Object.fromEntries(readdirSync(dir).map((f) => [f, statSync(path.join(dir, f)).mtimeMs]));

    const reported: Array<[string, string]> = [];
    const ks = await KeyStore.open({ dir, scrypt: "light", onSkipped: (file, reason) => reported.push([file, reason]) });
    expect(ks.accounts()).to.deep.equal([`0x${goodAddr}`]);
    expect(reported.map(([f]) => path.basename(f)).sort()).to.deep.equal(Object.keys(bad).sort());
    expect(reported.every(([f]) => path.dirname(f) === dir)).to.equal(true);
    const why = Object.fromEntries(reported.map(([f, r]) => [path.basename(f), r]));
    expect(why.garbage).to.equal("not JSON");
    expect(why["no-address"]).to.match(/no address field/);
    expect(why["v1-file"]).to.match(/not a Web3 Secret Storage v3 key file/);
    expect(why["wrong-cipher"]).to.match(/unsupported cipher/);
    expect(why["bad-kdf"]).to.match(/unsupported kdf/);
    expect(why["huge-n"]).to.match(/more than 1 GiB/);
    expect(why[`UTC--2099-01-01T00-00-00.000000000Z--${goodAddr}`]).to.match(/a second key file for 0x/);
    expect(ks.skipped.map((s) => s.file)).to.deep.equal(reported.map(([f]) => f));

    await ks.newAccount("more");
    for (const [f, mtime] of Object.entries(before)) expect(statSync(path.join(dir, f)).mtimeMs, f).to.equal(mtime);
    expect(readFileSync(path.join(dir, "garbage"), "utf8")).to.equal(bad.garbage);
    ks.close();
  });

  it("refuses a key it already holds (also two imports at once) and leaves no temporary files", async () => {
    const ks = await KeyStore.open({ dir, scrypt: "light" });
    const key = randomBytes(32);
    const results = await Promise.allSettled([ks.importKey(key, "a"), ks.importKey(key, "b")]);
    expect(results.map((r) => r.status).sort()).to.deep.equal(["fulfilled", "rejected"]);
    const failure = results.find((r) => r.status === "rejected") as PromiseRejectedResult;
    expect(failure.reason).to.be.instanceOf(AccountExistsError);
    expect((failure.reason as Error).message).to.equal("account already exists");
    expect(await rejection(ks.importKey(key, "c"))).to.be.instanceOf(AccountExistsError);
    expect(readdirSync(dir)).to.have.length(1);
    const storage = await DirectoryStorage.open(dir);
    expect((await rejection(storage.add(readdirSync(dir)[0], "{}"))).message).to.match(/exists/);
    expect(readdirSync(dir).filter((f) => f.startsWith("."))).to.deep.equal([]);
    ks.close();
  });

  it("lock state: a wrong passphrase changes nothing; lock drops the key; 0 holds it until close", async () => {
    const ks = await KeyStore.open({ scrypt: "light" });
    const a = await ks.newAccount("right");
    expect(ks.isUnlocked(a)).to.equal(false);
    expect(() => ks.unlockedKey(a)).to.throw(LockedError, "authentication needed: password or unlock");
    expect(await rejection(ks.unlock(a, "wrong")))
      .to.be.instanceOf(WrongPassphraseError)
      .and.have.property("message", "could not decrypt key with given password");
    expect(ks.isUnlocked(a)).to.equal(false);

    await ks.unlock(a, "right");
    expect(ks.isUnlocked(a)).to.equal(true);
    expect(await rejection(ks.unlock(a, "wrong"))).to.be.instanceOf(WrongPassphraseError);
    expect(ks.isUnlocked(a)).to.equal(true);
    expect(ks.lock(a)).to.equal(true);
    expect(ks.isUnlocked(a)).to.equal(false);

    await ks.unlock(a, "right", 0n);
    // an account unlocked until close stays so when unlocked again with a duration (geth)
    await ks.unlock(a, "right", 1n);
    await sleep(1200);
    expect(ks.isUnlocked(a)).to.equal(true);

    expect(await rejection(ks.unlock(a, "right", MAX_UNLOCK_SECONDS + 1n)))
      .to.be.instanceOf(DurationTooLargeError)
      .and.have.property("message", "unlock duration too large");
    expect(await rejection(ks.unlock("0x" + "11".repeat(20), "x")))
      .to.be.instanceOf(NoKeyError)
      .and.have.property("message", "no key for given address or file");
    expect(ks.lock("0x" + "11".repeat(20))).to.equal(false);

    const key = ks.unlockedKey(a);
    ks.close();
    expect(ks.isUnlocked(a)).to.equal(false);
    expect(key.some((b) => b !== 0)).to.equal(true); // callers get copies
    expect((await rejection(ks.unlock(a, "right"))).message).to.match(/closed/);
  });

  it("an unlock expires on the real clock within a second of its due time; unlocking again restarts it", async function () {
    this.timeout(20_000);
    const ks = await KeyStore.open({ scrypt: "light" });
    const a = await ks.newAccount("pw");
    await ks.unlock(a, "pw", 1n);
    await sleep(600);
    expect(ks.isUnlocked(a)).to.equal(true);
    await ks.unlock(a, "pw", 1n); // restarts the second
    await sleep(600);
    expect(ks.isUnlocked(a)).to.equal(true);
    await sleep(900);
    expect(ks.isUnlocked(a)).to.equal(false);
    expect(() => ks.unlockedKey(a)).to.throw(LockedError);
    expect(ks.wallets()[0].status).to.equal("Locked");
    ks.close();
  });

  it("reopening the directory keeps every account, locked", async () => {
    const first = await KeyStore.open({ dir, scrypt: "light" });
    const a = await first.newAccount("one");
    const b = await first.importKey(randomBytes(32), "two");
    await first.unlock(a, "one", 0n);
    first.close();
    const again = await KeyStore.open({ dir, scrypt: "light" });
    expect(again.accounts()).to.have.members([a, b]);
    expect(again.isUnlocked(a)).to.equal(false);
    await again.unlock(b, "two");
    expect(again.isUnlocked(b)).to.equal(true);
    expect(again.wallets().map((w) => w.url)).to.have.members(readdirSync(dir).map((f) => `keystore://${path.join(dir, f)}`));
    again.close();
  });
});
