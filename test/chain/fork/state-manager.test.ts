/**
 * The forked state manager's overlay rules, against a remote known only through its cache file (its
 * URL answers nothing, so any read the rules should not make fails the test): deletions, zeros and
 * cleared storage stay local; an account with no code at the remote has no remote storage.
 */
import { expect } from "chai";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { MerklePatriciaTrie } from "@ethereumjs/mpt";
import { Caches } from "@ethereumjs/statemanager";
import { Address, KECCAK256_NULL, ValueEncoding, bytesToHex, createAccount, hexToBytes, setLengthLeft } from "@ethereumjs/util";
import { createChainCommon } from "../../../src/chain/engine/common";
import { ForkCacheFile } from "../../../src/chain/fork/cache";
import { RemoteClient } from "../../../src/chain/fork/remote";
import { RemoteState } from "../../../src/chain/fork/remote-state";
import { ForkStateManager } from "../../../src/chain/fork/state-manager";
import { MemoryKV } from "../../../src/storage/memory-kv";
import { TrieDB } from "../../../src/storage/trie-db";
import { keccak256 } from "../../../src/utils/keccak";

const CONTRACT = "0x00000000000000000000000000000000000000c0";
const EOA = "0x00000000000000000000000000000000000000e0";
const CODE = "0x6001600055";
const slot = (n: number) => setLengthLeft(hexToBytes(`0x0${n}`), 32);
const word = (n: number) => bytesToHex(setLengthLeft(n === 0 ? new Uint8Array() : hexToBytes(`0x0${n}`), 32));

function stateOverCache(): ForkStateManager {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "fork-sm-"));
  const file = path.join(dir, "chain-1", "block-5-00000000000000ab.jsonl");
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const records = [
    { t: "a", a: CONTRACT, b: "0x5", n: "0x1", c: bytesToHex(keccak256(hexToBytes(CODE))) },
    { t: "c", h: bytesToHex(keccak256(hexToBytes(CODE))), v: CODE },
    { t: "s", a: CONTRACT, k: bytesToHex(slot(1)), v: word(7) },
    { t: "s", a: CONTRACT, k: bytesToHex(slot(2)), v: word(9) },
    { t: "a", a: EOA, b: "0x64", n: "0x0", c: bytesToHex(KECCAK256_NULL) },
  ];
  // a torn last line (a crash mid-write) is skipped
  fs.writeFileSync(file, `${records.map((r) => JSON.stringify(r)).join("\n")}\n{"t":"a","a":"0x`);
  const remote = new RemoteState(new RemoteClient("http://127.0.0.1:1/"), 5n, ForkCacheFile.open(dir, 1n, 5n, "0x00000000000000ab"));
  const common = createChainCommon(1n, "osaka");
  const trie = new MerklePatriciaTrie({ db: new TrieDB(new MemoryKV()), useKeyHashing: true, common, valueEncoding: ValueEncoding.Bytes });
  return new ForkStateManager({ trie, common, caches: new Caches() }, remote);
}

async function commitAll(sm: ForkStateManager, change: () => Promise<void>): Promise<void> {
  await sm.checkpoint();
  await change();
  await sm.commit();
}

describe("forked state overlay", () => {
  const c = new Address(hexToBytes(CONTRACT));
  const e = new Address(hexToBytes(EOA));

  it("reads accounts, code and storage from the remote's cache", async () => {
    const sm = stateOverCache();
    expect((await sm.getAccount(c))?.balance).to.equal(5n);
    expect(bytesToHex(await sm.getCode(c))).to.equal(CODE);
    expect(bytesToHex(setLengthLeft(await sm.getStorage(c, slot(1)), 32))).to.equal(word(7));
    expect((await sm.getAccount(e))?.balance).to.equal(100n);
    // no code at the remote: no remote storage either (the remote is not asked)
    expect((await sm.getStorage(e, slot(1))).length).to.equal(0);
  });

  it("a slot set to zero stays zero after a flush and in a copy at the new root", async () => {
    const sm = stateOverCache();
    await commitAll(sm, () => sm.putStorage(c, slot(1), new Uint8Array()));
    expect((await sm.getStorage(c, slot(1))).length).to.equal(0);
    const root = await sm.getStateRoot();
    const copy = sm.shallowCopy(false);
    await copy.setStateRoot(root);
    expect((await copy.getStorage(c, slot(1))).length).to.equal(0);
    expect(bytesToHex(setLengthLeft(await copy.getStorage(c, slot(2)), 32))).to.equal(word(9));
  });

  it("a deleted account stays deleted (a tombstone, not the remote's account)", async () => {
    const sm = stateOverCache();
    await sm.getAccount(e);
    await commitAll(sm, () => sm.deleteAccount(e));
    const copy = sm.shallowCopy(false);
    await copy.setStateRoot(await sm.getStateRoot());
    expect(await copy.getAccount(e)).to.equal(undefined);
  });

  it("cleared storage hides the remote's slots (CREATE over an old address)", async () => {
    const sm = stateOverCache();
    await commitAll(sm, async () => {
      await sm.getAccount(c);
      await sm.clearStorage(c);
    });
    const copy = sm.shallowCopy(false);
    await copy.setStateRoot(await sm.getStateRoot());
    expect((await copy.getStorage(c, slot(1))).length).to.equal(0);
    expect((await copy.getStorage(c, slot(2))).length).to.equal(0);
  });

  it("local writes win over the remote and survive a copy; a miss the cache lacks asks the remote (named in the error)", async () => {
    const sm = stateOverCache();
    await commitAll(sm, async () => {
      await sm.putAccount(c, createAccount({ nonce: 3n, balance: 8n, codeHash: keccak256(hexToBytes(CODE)) }));
      await sm.putStorage(c, slot(2), hexToBytes("0x2a"));
    });
    const copy = sm.shallowCopy(false);
    await copy.setStateRoot(await sm.getStateRoot());
    expect((await copy.getAccount(c))?.nonce).to.equal(3n);
    expect(bytesToHex(await copy.getStorage(c, slot(2)))).to.equal("0x2a");
    expect(bytesToHex(await copy.getCode(c))).to.equal(CODE);
    let message = "";
    try {
      await copy.getStorage(c, slot(3));
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).to.include("http://127.0.0.1:1/");
  });
});

describe("fork remote client", () => {
  it("keeps at most maxInFlight requests open, answers every caller, sends the URL's credentials as Basic auth", async () => {
    const http = await import("node:http");
    let open = 0;
    let peak = 0;
    const auth = new Set<string | undefined>();
    const server = http.createServer((req, res) => {
      auth.add(req.headers.authorization);
      open++;
      peak = Math.max(peak, open);
      let body = "";
      req.on("data", (d: Buffer) => (body += d.toString()));
      req.on("end", () => {
        const r = JSON.parse(body) as { id: number };
        // answered on the next turn, so requests overlap
        setImmediate(() => {
          open--;
          res.end(JSON.stringify({ jsonrpc: "2.0", id: r.id, result: "0x1" }));
        });
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const port = (server.address() as { port: number }).port;
    try {
      // user and password of the URL travel as Basic authorization
      const client = new RemoteClient(`http://user:pa%20ss@127.0.0.1:${port}/`, { maxInFlight: 3 });
      const results = await Promise.all(Array.from({ length: 20 }, () => client.call("eth_blockNumber", [])));
      expect(results).to.deep.equal(Array(20).fill("0x1"));
      expect(peak).to.be.at.most(3);
      expect(client.requests).to.equal(20);
      expect([...auth]).to.deep.equal([`Basic ${Buffer.from("user:pa ss").toString("base64")}`]);
    } finally {
      server.close();
    }
  });

  it("names the remote (without its password) and the method in every failure", async () => {
    const client = new RemoteClient("http://user:secret@127.0.0.1:1/path");
    let message = "";
    await client.call("eth_chainId", []).catch((err: Error) => (message = err.message));
    expect(message).to.include("http://127.0.0.1:1/path");
    expect(message).to.include("eth_chainId");
    expect(message).to.not.include("secret");
    expect(() => new RemoteClient("ws://127.0.0.1:1")).to.throw("expected an http:// or https:// JSON-RPC endpoint");
  });
});
