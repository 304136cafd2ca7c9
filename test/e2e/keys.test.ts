/**
 * Keys end to end, as users reach them: `keys:new` / `keys:import` / `keys:list` on a home, then
 * `npx hardhat node --home` serving those keys (a corrupt file reported by name and skipped), an
 * unlocked account's transaction mined, a key made over RPC written owner-only, and a restart that
 * keeps every account, locked.
 */
import { expect } from "chai";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Wallet, computeAddress, getAddress } from "ethers";
import { hardhatCli, ROOT, type Started, freePort, startHardhatNode, stopProcessGroup } from "../helpers/processes";
import { rpcResult } from "../helpers/json-rpc";
import { NODE_RECORD_FILE_NAME } from "../../src/host/node/node-files";

const KEY = "0xe9be548f57e4f6af0d8826109417f4be0237a5ce6c6d84b25b92ba7b303fd314";
const PASS = "task pass phrase";

function hardhat(args: string[], input?: string): { status: number | null; out: string } {
  const r = spawnSync(process.execPath, hardhatCli(...args), { cwd: ROOT, encoding: "utf8", input, timeout: 120_000 });
  return { status: r.status, out: r.stdout + r.stderr };
}

describe("keys tasks and npx hardhat node --home with a key store", function () {
  this.timeout(180_000);
  let home: string;
  let keystore: string;
  let port: number;
  let node: Started | undefined;
  let made: string;
  let token: string;

  const rpc = <T>(method: string, params: unknown[] = [], auth = true): Promise<T> => rpcResult<T>(`http://127.0.0.1:${port}/`, method, params, auth ? { authorization: `Bearer ${token}` } : {});
  const startNode = async () => {
    node = await startHardhatNode(["--home", home, "--port", String(port), "--json-rpc.ws-address", "127.0.0.1:0"]);
    token = readFileSync(path.join(home, "jsonrpc.token"), "utf8").trim();
  };

  before(async () => {
    home = mkdtempSync(path.join(tmpdir(), "epochs-keys-home-"));
    keystore = path.join(home, "keystore");
    port = await freePort();
  });
  after(async () => {
    await stopProcessGroup(node?.child);
    rmSync(home, { recursive: true, force: true });
  });

  it("keys:new and keys:import write owner-only key files and never print the secrets", () => {
    const pwFile = path.join(home, "..", `${path.basename(home)}.pw`);
    writeFileSync(pwFile, `${PASS}\nignored second line\n`);
    try {
      const created = hardhat(["keys:new", "--home", home, "--passphrase-file", pwFile, "--light-kdf"]);
      expect(created.status, created.out).to.equal(0);
      made = /Public address of the key:\s+(0x[0-9a-fA-F]{40})/.exec(created.out)?.[1] as string;
      expect(made).to.equal(getAddress(made));
      expect(created.out).to.not.include(PASS);
    } finally {
      rmSync(pwFile, { force: true });
    }
    const keyFile = path.join(home, "..", `${path.basename(home)}.key`);
    writeFileSync(keyFile, `${KEY}\n`);
    try {
      // without a terminal the passphrase is stdin's first line
      const imported = hardhat(["keys:import", "--home", home, "--key-file", keyFile, "--light-kdf"], `${PASS}\n`);
      expect(imported.status, imported.out).to.equal(0);
      expect(imported.out).to.include(`Public address of the key:   ${computeAddress(KEY)}`);
      expect(imported.out).to.not.include(PASS);
      expect(imported.out).to.not.include(KEY.slice(2));
      const again = hardhat(["keys:import", "--home", home, "--key-file", keyFile, "--light-kdf"], `${PASS}\n`);
      expect(again.status).to.not.equal(0);
      expect(again.out).to.include("account already exists");
    } finally {
      rmSync(keyFile, { force: true });
    }
    const files = readdirSync(keystore);
    expect(files).to.have.length(2);
    for (const f of files) {
      expect(f).to.match(/^UTC--\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d\.\d{9}Z--[0-9a-f]{40}$/);
      expect(statSync(path.join(keystore, f)).mode & 0o777).to.equal(0o600);
    }
    const missing = hardhat(["keys:new", "--home", home], "");
    expect(missing.status).to.not.equal(0);
    expect(missing.out).to.include("no passphrase: stdin ended");
  });

  it("keys:list prints geth's account lines and reports a corrupt file by name", async () => {
    writeFileSync(path.join(keystore, "broken.json"), "{ not json");
    const list = hardhat(["keys:list", "--home", home]);
    expect(list.status, list.out).to.equal(0);
    expect(list.out).to.include(`WARNING: skipped key file ${path.join(keystore, "broken.json")}: not JSON`);
    expect(list.out).to.match(new RegExp(`Account #\\d: \\{${made.slice(2).toLowerCase()}\\} keystore://${keystore}/UTC--`));
    expect(list.out).to.include(`{${computeAddress(KEY).slice(2).toLowerCase()}}`);
    // the file from ethers decrypts with the passphrase given to the task
    const file = readdirSync(keystore).find((f) => f.endsWith(made.slice(2).toLowerCase())) as string;
    expect((await Wallet.fromEncryptedJson(readFileSync(path.join(keystore, file), "utf8"), PASS)).address).to.equal(made);
  });

  it("the node serves the home's keys, reports the corrupt file, and mines an unlocked account's transaction", async () => {
    await startNode();
    // a node with a home leaves its record too (the project's `--network localhost` follows it), naming its home
    const record = JSON.parse(readFileSync(path.join(ROOT, "cache", NODE_RECORD_FILE_NAME), "utf8")) as { pid: number; ports: number[]; home?: string };
    expect(record).to.include({ home });
    expect(record.ports[0]).to.equal(port);
    expect(node?.output()).to.include(`WARNING: skipped key file ${path.join(keystore, "broken.json")}: not JSON`);
    expect(readFileSync(path.join(keystore, "broken.json"), "utf8")).to.equal("{ not json");
    const listed = await rpc<string[]>("personal_listAccounts");
    expect(listed).to.have.members([made.toLowerCase(), computeAddress(KEY).toLowerCase()]);
    const accounts = await rpc<string[]>("eth_accounts", [], false);
    expect(accounts.slice(-2)).to.have.members(listed);
    await rpc("eth_sendTransaction", [{ from: accounts[0], to: made, value: "0xde0b6b3a7640000" }], false);
    expect(await rpc("personal_unlockAccount", [made, PASS, 60])).to.equal(true);
    const hash = await rpc<string>("eth_sendTransaction", [{ from: made, to: accounts[1], value: "0x1" }], false);
    expect(await rpc("eth_getTransactionReceipt", [hash], false)).to.deep.include({ status: "0x1", from: made.toLowerCase() });
  });

  it("personal_newAccount on the node writes an owner-only file with geth's standard scrypt parameters", async () => {
    const fresh = await rpc<string>("personal_newAccount", ["node pass"]);
    const file = readdirSync(keystore).find((f) => f.endsWith(fresh.slice(2).toLowerCase())) as string;
    expect(file).to.match(/^UTC--/);
    expect(statSync(path.join(keystore, file)).mode & 0o777).to.equal(0o600);
    expect(JSON.parse(readFileSync(path.join(keystore, file), "utf8")).crypto.kdfparams).to.include({ n: 262144, r: 8, p: 1 });
  });

  it("after a restart every account is still there, locked", async () => {
    await stopProcessGroup(node?.child);
    await startNode();
    const listed = await rpc<string[]>("personal_listAccounts");
    expect(listed).to.have.length(3);
    expect(listed).to.include(made.toLowerCase());
    let err: Error | undefined;
    try {
      await rpc("eth_sendTransaction", [{ from: made, to: made, value: "0x1" }], false);
    } catch (e) {
      err = e as Error;
    }
    expect(err?.message).to.equal("authentication needed: password or unlock");
    const wallets = await rpc<Array<{ status: string }>>("personal_listWallets");
    expect(wallets.map((w) => w.status)).to.deep.equal(["Locked", "Locked", "Locked"]);
  });

  it("--json-rpc.allow-insecure-unlock=false refuses the unlock paths, as Evmos does", async () => {
    await stopProcessGroup(node?.child);
    node = await startHardhatNode(["--home", home, "--port", String(port), "--json-rpc.ws-address", "127.0.0.1:0", "--json-rpc.allow-insecure-unlock=false"]);
    token = readFileSync(path.join(home, "jsonrpc.token"), "utf8").trim();
    for (const [method, params] of [
      ["eth_accounts", []],
      ["personal_listAccounts", []],
      ["personal_unlockAccount", [made, PASS, 10]],
    ] as Array<[string, unknown[]]>) {
      let err: Error | undefined;
      try {
        await rpc(method, params);
      } catch (e) {
        err = e as Error;
      }
      expect(err?.message, method).to.equal("account unlock with HTTP access is forbidden");
    }
    expect(await rpc<string[]>("personal_listWallets")).to.have.length(3);
  });
});
