/**
 * Saved state (hardhat_dumpState / anvil_dumpState, …_loadState): a dump loads into a fresh node
 * with the same accounts, code, storage, epochs records and hook registrations, and the next block
 * ticks the epochs as the original's next block does; bad dumps are refused whole.
 */
import { expect } from "chai";
import { gunzipSync, gzipSync } from "node:zlib";
import { RLP } from "@ethereumjs/rlp";
import { Interface, keccak256, toBeHex, toUtf8Bytes } from "ethers";
import { newEpochInfo } from "../../src/epochs";
import type { Harness } from "../helpers/harness";
import { rpcError } from "../helpers/harness";
import { harnesses } from "../helpers/matrix";
import { compile } from "../helpers/solc";

const HOOK = `
// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;
interface IEpochs { function registerHooks() external returns (bool); }
contract Counter {
  uint256 public n; mapping(uint256 => uint256) public at;
  constructor() { IEpochs(0x0000000000000000000000000000000000000900).registerHooks(); }
  function bump() external { n++; at[n] = block.number; }
  function beforeEpochStart(string calldata, int64 e) external { n += 1000 * uint256(int256(e)); }
  function afterEpochEnd(string calldata, int64) external {}
}`;

interface Receipt {
  contractAddress: string;
  blockNumber: string;
}
interface Info {
  identifier: string;
  current_epoch: string;
  current_epoch_start_time: string;
  current_epoch_start_height: string;
  epoch_counting_started: boolean;
}
type EventList = Array<{ type: string; attributes: Array<{ key: string; value: string }> }>;
interface Events {
  begin_block_events: EventList;
  end_block_events: EventList;
}

const epochs = { genesis: { epochs: [newEpochInfo("10s", 10n), newEpochInfo("hour", 3600n)] } };
const counter = new Interface(compile(HOOK).Counter.abi as never);
const hexq = (n: bigint | number): string => `0x${n.toString(16)}`;

/** What a fresh node must reproduce: every account's fields, storage slots read back, epochs and hooks. */
async function observe(h: Harness, addresses: string[], slots: Record<string, string[]>) {
  const out: Record<string, unknown> = {};
  for (const a of addresses) {
    out[a] = {
      balance: await h.request("eth_getBalance", [a, "latest"]),
      nonce: await h.request("eth_getTransactionCount", [a, "latest"]),
      code: await h.request("eth_getCode", [a, "latest"]),
      storage: await Promise.all((slots[a] ?? []).map((s) => h.request("eth_getStorageAt", [a, s, "latest"]))),
    };
  }
  const infos = (await h.request<{ epochs: Info[] }>("epochs_epochInfos")).epochs;
  return { accounts: out, infos, hooks: await h.request<string[]>("epochs_hooks") };
}

/**
 * Mines two blocks from `ts` (the first ends the due epochs, the second starts the next ones) and
 * returns what they did to the epochs; heights aside, as the loaded chain is at another height.
 */
async function nextTicks(h: Harness, ts: bigint, contract: string) {
  const events: unknown[] = [];
  for (const t of [ts, ts + 1n]) {
    await h.request("evm_setNextBlockTimestamp", [hexq(t)]);
    await h.request("evm_mine");
    const ev = await h.request<Events>("epochs_blockEvents", [await h.request<string>("eth_blockNumber")]);
    for (const e of [...ev.begin_block_events, ...ev.end_block_events]) events.push({ type: e.type, attributes: e.attributes.filter((x) => x.key !== "gas_used") });
  }
  const infos = (await h.request<{ epochs: Info[] }>("epochs_epochInfos")).epochs.map(({ current_epoch_start_height: _h, ...rest }) => rest);
  const n = await h.request<string>("eth_call", [{ to: contract, data: counter.encodeFunctionData("n") }, "latest"]);
  return { events, infos, n };
}

for (const make of harnesses()) {
  describe(`saved state: dump and load (${make.name})`, function () {
    this.timeout(120_000);
    let a: Harness;
    let b: Harness;
    let contract: string;
    let from: string;
    let other: string;
    let dump: string;

    before(async () => {
      a = await make.create({ epochs });
      b = await make.create({ epochs });
      [from, other] = await a.request<string[]>("eth_accounts");
      const deploy = await a.request<string>("eth_sendTransaction", [{ from, data: compile(HOOK).Counter.bytecode }]);
      contract = (await a.request<Receipt>("eth_getTransactionReceipt", [deploy])).contractAddress;
      for (let i = 0; i < 3; i++) {
        await a.request("eth_sendTransaction", [{ from, to: contract, data: counter.encodeFunctionData("bump") }]);
        await a.request("evm_increaseTime", [11]);
        await a.request("evm_mine");
      }
      await a.request("eth_sendTransaction", [{ from, to: other, value: "0x1234" }]);
      // a change between blocks is part of the state too
      await a.request("hardhat_setStorageAt", [contract, hexq(77), `0x${"ab".repeat(32)}`]);
      dump = await a.request<string>("hardhat_dumpState");
    });
    after(async () => {
      await a?.close();
      await b?.close();
    });

    it("dumps Anvil's format: gzipped JSON as hex, accounts by address, the epochs store in the precompile's account", async () => {
      const json = JSON.parse(gunzipSync(Buffer.from(dump.slice(2), "hex")).toString()) as Record<string, unknown>;
      expect(Object.keys(json)).to.include.members(["block", "accounts", "best_block_number", "blocks", "transactions", "hardhat_epochs"]);
      const accounts = json.accounts as Record<string, { nonce: number; balance: string; code: string; storage: Record<string, string> }>;
      const c = accounts[contract.toLowerCase()];
      expect(c.nonce).to.equal(1);
      expect(c.code).to.match(/^0x[0-9a-f]{100,}$/);
      expect(c.storage[`0x${"0".repeat(62)}4d`]).to.equal(`0x${"ab".repeat(32)}`);
      expect(c.storage[`0x${"0".repeat(64)}`]).to.equal(await a.request("eth_getStorageAt", [contract, "0x0", "latest"]));
      expect((json.hardhat_epochs as { block_number: string }).block_number).to.equal(await a.request("eth_blockNumber"));
      expect(accounts[from.toLowerCase()].nonce).to.equal(5);
      // the hook registration and the epochs store (one record) are storage of the epochs precompile's account
      const precompile = accounts["0x0000000000000000000000000000000000000900"].storage;
      const header = toBeHex(BigInt(keccak256(toUtf8Bytes("module-store"))), 32);
      const length = Number(BigInt(precompile[header]) - 1n);
      const words = Array.from({ length: Math.ceil(length / 32) }, (_, i) => precompile[toBeHex(BigInt(header) + 1n + BigInt(i), 32)].slice(2)).join("");
      // each entry RLP [key, value], padded to whole words (src/chain/base/module-state.ts)
      const record = Buffer.from(words, "hex").subarray(0, length);
      const keys: string[] = [];
      for (let at = 0; at < record.length;) {
        const { data, remainder } = RLP.decode(record.subarray(at), true);
        keys.push(
          Buffer.from((data as Uint8Array[])[0])
            .subarray(1)
            .toString(),
        );
        at = Math.ceil((record.length - remainder.length) / 32) * 32;
      }
      expect(keys).to.deep.equal(["10s", "hour"]);
      const section = json.hardhat_epochs as { version: number; modules?: unknown };
      expect(section.version).to.equal(1);
      expect(section.modules, "no section of its own: the store travels with the accounts").to.equal(undefined);
    });

    it("loads into a fresh node: the same accounts, code, storage, epochs records and hooks (Anvil's name too)", async () => {
      const addresses = [from, other, contract, "0x0000000000000000000000000000000000000900"];
      const slots = { [contract]: ["0x0", "0x4d", "0x1"] };
      const before = await observe(a, addresses, slots);
      expect(before.hooks).to.deep.equal([contract.toLowerCase()]);
      expect(await b.request("anvil_loadState", [dump])).to.equal(true);
      expect(await observe(b, addresses, slots)).to.deep.equal(before);
      // a fresh node takes the dump's height and time (the epochs records name heights)
      expect(await b.request("eth_blockNumber")).to.equal(await a.request("eth_blockNumber"));
      const [ha, hb] = [await a.request<{ timestamp: string }>("eth_getBlockByNumber", ["latest", false]), await b.request<{ timestamp: string }>("eth_getBlockByNumber", ["latest", false])];
      expect(hb.timestamp).to.equal(ha.timestamp);
    });

    it("the next block ticks the epochs as the original's next block, hooks included", async () => {
      const head = await a.request<{ timestamp: string }>("eth_getBlockByNumber", ["latest", false]);
      const ts = BigInt(head.timestamp) + 3601n; // both epochs are due
      const [ta, tb] = [await nextTicks(a, ts, contract), await nextTicks(b, ts, contract)];
      expect(ta.events.map((e) => (e as { type: string }).type)).to.include.members(["epoch_end", "epoch_start"]);
      expect(tb).to.deep.equal(ta);
    });

    it("refuses a bad dump with -32602 naming what is wrong, and changes nothing", async () => {
      const balance = await b.request<string>("eth_getBalance", [other, "latest"]);
      const bad = (json: unknown) => `0x${gzipSync(JSON.stringify(json)).toString("hex")}`;
      const good = { nonce: 9, balance: "0x1", code: "0x", storage: {} };
      const cases: Array<[string, RegExp]> = [
        ["0x1234", /invalid state dump: not JSON/],
        ["not hex", /invalid state dump: expected the hex string/],
        [bad([1, 2]), /expected a JSON object with an `accounts` field/],
        [bad({ accounts: { [other]: good, "0x12": good } }), /accounts\.0x12: not a 20-byte address/],
        [bad({ accounts: { [other]: good, [from]: { ...good, balance: "lots" } } }), new RegExp(`accounts\\.${from}\\.balance: expected a non-negative integer`)],
        [bad({ accounts: { [other]: good, [from]: { ...good, storage: { "0x1": "0xzz" } } } }), /storage\[0x1\]: expected a 0x-prefixed hex string/],
        [bad({ accounts: { [other]: good }, hardhat_epochs: { version: 1, chain_id: "9000", modules: { staking: {} } } }), /this chain has no module staking/],
        [bad({ accounts: { [other]: good }, hardhat_epochs: { version: 2 } }), /hardhat_epochs: expected \{ version: 1/],
      ];
      for (const [input, text] of cases) {
        const err = await rpcError(b.request("hardhat_loadState", [input]));
        expect(err.code, String(input).slice(0, 40)).to.equal(-32602);
        expect(err.message).to.match(text);
      }
      // the valid first account of each bad dump was not applied
      expect(await b.request("eth_getBalance", [other, "latest"])).to.equal(balance);
      expect(await b.request("eth_blockNumber")).to.be.a("string");
    });

    it("a snapshot taken before a load reverts it, the epochs records included", async () => {
      const c = await make.create({ epochs });
      try {
        const [x] = await c.request<string[]>("eth_accounts");
        await c.request("evm_mine");
        const before = { infos: await c.request("epochs_epochInfos"), balance: await c.request("eth_getBalance", [x, "latest"]), head: await c.request("eth_blockNumber") };
        const id = await c.request<string>("evm_snapshot");
        await c.request("hardhat_loadState", [dump]);
        expect(await c.request("epochs_epochInfos")).to.not.deep.equal(before.infos);
        expect(await c.request("evm_revert", [id])).to.equal(true);
        expect(await c.request("epochs_epochInfos")).to.deep.equal(before.infos);
        expect(await c.request("eth_getBalance", [x, "latest"])).to.equal(before.balance);
        expect(await c.request("eth_blockNumber")).to.equal(before.head);
      } finally {
        await c.close();
      }
    });
  });
}
