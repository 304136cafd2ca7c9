/**
 * A block's transactions and receipts roots (src/chain/block/ordered-trie.ts computes them without a
 * trie) are the ones EthereumJS's own trie gives for what the block and its receipts hold.
 */
import { expect } from "chai";
import { MerklePatriciaTrie } from "@ethereumjs/mpt";
import { RLP } from "@ethereumjs/rlp";
import { hexToBytes } from "@ethereumjs/util";
import { encodeReceipt } from "@ethereumjs/vm";
import { type Harness, inProcess } from "../helpers/harness";

interface JsonReceipt {
  type: string;
  status: string;
  cumulativeGasUsed: string;
  logsBloom: string;
  logs: Array<{ address: string; topics: string[]; data: string }>;
}

async function receiptsRoot(receipts: JsonReceipt[]): Promise<Uint8Array> {
  const trie = new MerklePatriciaTrie();
  for (let i = 0; i < receipts.length; i++) {
    const r = receipts[i];
    const encoded = encodeReceipt(
      {
        status: Number(r.status) as 0 | 1,
        cumulativeBlockGasUsed: BigInt(r.cumulativeGasUsed),
        bitvector: hexToBytes(r.logsBloom as `0x${string}`),
        logs: r.logs.map((l) => [hexToBytes(l.address as `0x${string}`), l.topics.map((t) => hexToBytes(t as `0x${string}`)), hexToBytes(l.data as `0x${string}`)]),
      },
      Number(r.type) as 0 | 1 | 2,
    );
    await trie.put(RLP.encode(i), encoded);
  }
  return trie.root();
}

// init code that logs (LOG1 with topic 7 over 2 bytes of memory), then deploys nothing
const LOGGING_INIT = "0x61abcd600052600760026000a100";
// init code that reverts: a failed transaction's receipt (status 0) in the block
const REVERTING_INIT = "0x60006000fd";

describe("block roots", function () {
  this.timeout(60_000);
  let h: Harness;
  let accounts: string[];
  before(async () => {
    h = await inProcess();
    accounts = await h.request<string[]>("eth_accounts");
  });
  after(() => h.close());

  for (const count of [1, 3, 40]) {
    it(`match EthereumJS's tries for a block of ${count} transaction(s) of every kind`, async () => {
      await h.request("evm_setAutomine", [false]);
      for (let i = 0; i < count; i++) {
        const from = accounts[i % 6];
        const kind = i % 5;
        const tx: Record<string, unknown> = { from, gas: "0x30000" };
        if (kind === 0) Object.assign(tx, { to: accounts[9], value: "0x1", gasPrice: "0x3b9aca00" });
        else if (kind === 1) Object.assign(tx, { to: accounts[9], value: "0x2", gasPrice: "0x3b9aca00", accessList: [{ address: accounts[8], storageKeys: ["0x" + "00".repeat(32)] }] });
        else if (kind === 2) Object.assign(tx, { to: accounts[9], value: "0x3" });
        else if (kind === 3) Object.assign(tx, { data: LOGGING_INIT });
        else Object.assign(tx, { data: REVERTING_INIT });
        await h.request("eth_sendTransaction", [tx]);
      }
      await h.request("evm_mine");
      await h.request("evm_setAutomine", [true]);
      const head = h.runtime.node.head;
      expect(head.transactions.length).to.equal(count);
      expect(await head.transactionsTrieIsValid()).to.equal(true);
      const receipts = await h.request<JsonReceipt[]>("eth_getBlockReceipts", ["latest"]);
      expect(receipts.length).to.equal(count);
      if (count >= 5) {
        expect(receipts.some((r) => r.status === "0x0")).to.equal(true);
        expect(receipts.some((r) => r.logs.length > 0)).to.equal(true);
      }
      expect(Buffer.from(head.header.receiptTrie).toString("hex")).to.equal(Buffer.from(await receiptsRoot(receipts)).toString("hex"));
    });
  }
});
