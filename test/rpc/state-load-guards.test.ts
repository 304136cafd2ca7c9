/**
 * State loads are all or nothing (docs/state.md): a dump whose module records the modules cannot
 * read is refused and nothing of it is kept (the epochs store read back from the loaded EVM state
 * and its records with their codec, an older dump's `modules` section likewise, the Cosmos modules'
 * records), a gzip stream is bounded, and a load on a fresh node keeps node-local data and the
 * snapshots taken before it. Over every transport.
 */
import { expect } from "chai";
import { gunzipSync, gzipSync } from "node:zlib";
import { keccak256, toBeHex, toUtf8Bytes } from "ethers";
import { STAKING_PRECOMPILE } from "../../src/cosmos/staking/types";
import { type Harness, rpcError } from "../helpers/harness";
import { harnesses } from "../helpers/matrix";

interface Dump {
  accounts: Record<string, { storage: Record<string, string> }>;
  hardhat_epochs: { modules?: Record<string, Record<string, string>> };
}

const EPOCHS_ACCOUNT = "0x0000000000000000000000000000000000000900";
/** The header (length + 1) and first word of the epochs store's record in the precompile account's storage (src/chain/base/records.ts). */
const STORE_HEADER = toBeHex(BigInt(keccak256(toUtf8Bytes("module-store"))), 32);
const STORE_FIRST_WORD = toBeHex(BigInt(STORE_HEADER) + 1n, 32);

/**
 * Loads `dump` with one more account in it and expects the whole load refused: -32602 with `why`,
 * and that account not kept.
 */
async function expectRefusedWhole(h: Harness, dump: Dump, why: RegExp): Promise<void> {
  const marker = "0x00000000000000000000000000000000000c0ffe";
  (dump.accounts as Record<string, unknown>)[marker] = { nonce: 0, balance: "0x1234", code: "0x", storage: {} };
  const err = await rpcError(h.request("hardhat_loadState", [JSON.stringify(dump)]));
  expect(err.code).to.equal(-32602);
  expect(err.message, err.message).to.match(why);
  expect(await h.request("eth_getBalance", [marker, "latest"]), "no account of the dump was kept").to.equal("0x0");
}

/** The epochs store at the head as an older version's dump carried it: key → value, in hex. */
async function epochsSection(h: Harness): Promise<Record<string, string>> {
  const store = await h.runtime.node.moduleStore("epochs");
  return Object.fromEntries(store.entries().map(([k, v]) => [`0x${Buffer.from(k).toString("hex")}`, `0x${Buffer.from(v).toString("hex")}`]));
}

/** The JSON of hardhat_dumpState's answer (hex of gzip). */
const decode = (hex: string): Dump => JSON.parse(gunzipSync(Buffer.from(hex.slice(2), "hex")).toString()) as Dump;

/** ~300 MiB of JSON whitespace in a few hundred KiB of gzip: more than a dump may hold. */
const BOMB = `0x${gzipSync(Buffer.alloc(300 * 1024 * 1024, 0x20), { level: 9 }).toString("hex")}`;

for (const f of harnesses()) {
  describe(`state loads are all or nothing (${f.name})`, function () {
    this.timeout(60_000);

    it("refuses a dump whose epochs store does not read back, keeping none of its accounts", async () => {
      const h = await f.create();
      try {
        await h.request("hardhat_mine", ["0x3"]);
        const dumped = await h.request<string>("hardhat_dumpState");
        const before = await h.request("epochs_epochInfos");
        // its first word made garbage; its header claiming 2^200 bytes (refused before anything is read on)
        for (const [slot, value, why] of [
          [STORE_FIRST_WORD, `0x${"ff".repeat(32)}`, /^invalid state dump: the epochs module's (store cannot be read|record 0x[0-9a-f]+): /],
          [STORE_HEADER, toBeHex(2n ** 200n, 32), /^invalid state dump: the epochs module's store cannot be read: record "module-store" claims \d+ bytes, more than a record holds/],
        ] as const) {
          const dump = decode(dumped);
          const storage = dump.accounts[EPOCHS_ACCOUNT].storage;
          expect(storage[slot], "the store is storage of the precompile's account").to.be.a("string");
          storage[slot] = value;
          await expectRefusedWhole(h, dump, why);
          expect(await h.request("epochs_epochInfos")).to.deep.equal(before);
        }
        expect(await h.request("evm_mine")).to.equal("0x0");
      } finally {
        await h.close();
      }
    });

    it("refuses hardhat_setStorageAt into a module's record that would leave it unreadable, and blocks go on being made", async () => {
      const h = await f.create();
      try {
        await h.request("hardhat_mine", ["0x2"]);
        const before = await h.request("epochs_epochInfos");
        for (const [slot, value] of [
          [STORE_FIRST_WORD, `0x${"ff".repeat(32)}`],
          [STORE_HEADER, toBeHex(2n ** 200n, 32)],
        ] as const) {
          const err = await rpcError(h.request("hardhat_setStorageAt", [EPOCHS_ACCOUNT, `0x${BigInt(slot).toString(16)}`, value]));
          expect(err.message).to.match(/^refused, as it would leave the state unreadable: the epochs module's (store cannot be read|record 0x[0-9a-f]+): /);
          expect(await h.request("epochs_epochInfos")).to.deep.equal(before);
          const n = BigInt(await h.request<string>("eth_blockNumber"));
          expect(await h.request("evm_mine")).to.equal("0x0");
          expect(BigInt(await h.request<string>("eth_blockNumber"))).to.equal(n + 1n);
        }
        // a word of the account's storage outside the record is the developer's to set
        expect(await h.request("hardhat_setStorageAt", [EPOCHS_ACCOUNT, "0x3039", toBeHex(7n, 32)])).to.equal(true);
      } finally {
        await h.close();
      }
    });

    it("refuses an older dump whose epochs records do not decode, and the chain goes on as before", async () => {
      const h = await f.create();
      try {
        await h.request("hardhat_mine", ["0x3"]);
        const dump = decode(await h.request<string>("hardhat_dumpState"));
        const records = await epochsSection(h);
        dump.hardhat_epochs.modules = { epochs: records };
        expect(Object.keys(records).length).to.be.greaterThan(0);
        for (const k of Object.keys(records)) records[k] = "0xdeadbeef";
        const before = await h.request("epochs_epochInfos");
        const err = await rpcError(h.request("hardhat_loadState", [JSON.stringify(dump)]));
        expect(err.code).to.equal(-32602);
        expect(err.message, err.message).to.match(/^invalid state dump: hardhat_epochs\.modules\.epochs\[0x[0-9a-f]+\]: not an EpochInfo record: /);
        // nothing applied: the epochs answer and blocks are made as before
        expect(await h.request("epochs_epochInfos")).to.deep.equal(before);
        expect(await h.request("evm_mine")).to.equal("0x0");
        expect(await h.request("eth_blockNumber")).to.equal("0x4");
        // a record under one identifier that names another is refused too
        const good = JSON.parse(JSON.stringify(dump)) as Dump;
        const fresh = await f.create();
        try {
          const [[k1, v1], [k2]] = Object.entries(await epochsSection(fresh)).filter(([k]) => k.startsWith("0x01"));
          good.hardhat_epochs.modules = { epochs: { [k2]: v1 } };
          const moved = await rpcError(fresh.request("hardhat_loadState", [JSON.stringify(good)]));
          expect(moved.message, k1).to.match(/names "/);
        } finally {
          await fresh.close();
        }
      } finally {
        await h.close();
      }
    });

    it("refuses a dump whose Cosmos records do not read back, keeping none of its accounts", async () => {
      const h = await f.create({ cosmos: { staking: true } });
      try {
        const hex = await h.request<string>("hardhat_dumpState");
        const dump = decode(hex);
        const staking = Object.keys(dump.accounts).find((a) => a.toLowerCase() === STAKING_PRECOMPILE);
        expect(staking).to.be.a("string");
        // the first word of the `params` record: no longer JSON
        const slot = toBeHex(BigInt(keccak256(toUtf8Bytes("params"))) + 1n, 32);
        dump.accounts[staking as string].storage[slot] = `0x${"ff".repeat(32)}`;
        const before = await h.request("cosmos_stakingState");
        await expectRefusedWhole(h, dump, /^invalid state dump: the staking module's params cannot be read: /);
        expect(await h.request("cosmos_stakingState")).to.deep.equal(before);
        expect(await h.request("evm_mine")).to.equal("0x0");
      } finally {
        await h.close();
      }
    });

    it("refuses a gzip stream that decompresses past the bound", async () => {
      const h = await f.create();
      try {
        const err = await rpcError(h.request("hardhat_loadState", [BOMB]));
        expect(err).to.deep.include({ code: -32602, message: "invalid state dump: the gzip stream holds more than 256 MiB of JSON (the most a dump may hold)" });
        expect(await h.request("eth_blockNumber")).to.equal("0x0");
      } finally {
        await h.close();
      }
    });

    it("a load on a fresh node keeps node-local data, and a snapshot taken before it reverts it", async () => {
      const source = await f.create();
      const h = await f.create();
      try {
        await source.request("hardhat_mine", ["0x5"]);
        const dump = await source.request<string>("hardhat_dumpState");
        expect(await h.request("db_putString", ["app", "k", "kept"])).to.equal(true);
        const snap = await h.request<string>("evm_snapshot");
        expect(await h.request("hardhat_loadState", [dump])).to.equal(true);
        expect(await h.request("eth_blockNumber")).to.equal("0x5");
        expect(await h.request("db_getString", ["app", "k"])).to.equal("kept");
        expect(await h.request("evm_revert", [snap])).to.equal(true);
        expect(await h.request("eth_blockNumber")).to.equal("0x0");
        expect(await h.request("db_getString", ["app", "k"])).to.equal("kept");
        // the chain before the load works on: a block after it is block 1
        expect(await h.request("evm_mine")).to.equal("0x0");
        expect(await h.request("eth_blockNumber")).to.equal("0x1");
      } finally {
        await source.close();
        await h.close();
      }
    });

    it("a refused load on a fresh node leaves it at its own height and time", async () => {
      const source = await f.create();
      const h = await f.create();
      try {
        await source.request("hardhat_mine", ["0x5", "0x3c"]);
        const hex = await source.request<string>("hardhat_dumpState");
        const dump = decode(hex);
        dump.accounts[EPOCHS_ACCOUNT].storage[STORE_FIRST_WORD] = `0x${"0a".repeat(32)}`;
        const head = await h.request<{ timestamp: string }>("eth_getBlockByNumber", ["latest", false]);
        expect((await rpcError(h.request("hardhat_loadState", [JSON.stringify(dump)]))).code).to.equal(-32602);
        expect(await h.request("eth_blockNumber")).to.equal("0x0");
        await h.request("evm_mine");
        const next = await h.request<{ timestamp: string }>("eth_getBlockByNumber", ["latest", false]);
        expect(BigInt(next.timestamp) - BigInt(head.timestamp) < 60n, "the clock did not jump to the dump's time").to.equal(true);
      } finally {
        await source.close();
        await h.close();
      }
    });
  });
}
