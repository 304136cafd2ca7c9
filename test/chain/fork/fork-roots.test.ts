/**
 * A forked chain's state roots do not depend on what was read between blocks: two chains forked
 * from the same remote block run the same blocks, one of them read (remote accounts' pending nonces,
 * balances, a sender check that refuses a transaction) between every two blocks; every block's state
 * root is the same on both. Through the in-process provider, real HTTP and real WebSocket.
 */
import { expect } from "chai";
import type { Harness } from "../../helpers/harness";
import { serveHttp } from "../../helpers/http";
import { harnesses } from "../../helpers/matrix";

const DEV0 = "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266";
const RICH = "0x1111111111111111111111111111111111111111";
const RECEIVER = "0x3333333333333333333333333333333333333333";
/** Accounts the local chain never writes: only reads could put them into its state. */
const READ_ONLY = ["0x4444444444444444444444444444444444444444", "0x5555555555555555555555555555555555555555"];
const hexN = (n: bigint) => `0x${n.toString(16)}`;

for (const make of harnesses()) {
  describe(`a forked chain's state roots do not depend on reads between blocks (${make.name})`, function () {
    this.timeout(120_000);
    let remote: Harness;
    let read: Harness;
    let quiet: Harness;
    let forkTime: bigint;

    before(async () => {
      remote = await serveHttp();
      await remote.request("hardhat_setBalance", [RICH, hexN(10n ** 18n)]);
      await remote.request("hardhat_setBalance", [READ_ONLY[0], "0x1234"]);
      await remote.request("hardhat_setNonce", [READ_ONLY[1], "0x7"]);
      await remote.request("evm_mine");
      const pinned = BigInt(await remote.request<string>("eth_blockNumber"));
      forkTime = BigInt((await remote.request<{ timestamp: string }>("eth_getBlockByNumber", [hexN(pinned), false])).timestamp);
      const fork = { url: remote.url as string, blockNumber: pinned };
      read = await make.create({ fork });
      quiet = await make.create({ fork });
    });
    after(async () => {
      await read?.close();
      await quiet?.close();
      await remote?.close();
    });

    /** The same block on both chains, at the same time. */
    const block = async (i: number, tx?: Record<string, unknown>) => {
      for (const h of [read, quiet]) {
        await h.request("evm_setNextBlockTimestamp", [hexN(forkTime + BigInt(10 * (i + 1)))]);
        if (tx !== undefined) await h.request("eth_sendTransaction", [tx]);
        else await h.request("evm_mine");
      }
    };

    /** What a wallet and a dapp read between blocks, on one chain only; `round` adds an account not read before. */
    const reads = async (h: Harness, round: number) => {
      const fresh = `0x${"a".repeat(39)}${round}`;
      for (const a of [...READ_ONLY, RICH, RECEIVER, fresh]) {
        await h.request("eth_getTransactionCount", [a, "pending"]);
        await h.request("eth_getTransactionCount", [a, "latest"]);
        await h.request("eth_getBalance", [a, "pending"]);
      }
      // the sender check reads the sender's account (at the remote), then refuses the transaction
      await h.request("hardhat_impersonateAccount", [READ_ONLY[0]]);
      const refused = await h.request("eth_sendTransaction", [{ from: READ_ONLY[0], to: RECEIVER, value: hexN(10n ** 18n) }]).catch((err: Error) => err);
      expect(refused).to.be.instanceOf(Error);
      expect((refused as Error).message).to.match(/insufficient funds|doesn't have enough funds/);
      await h.request("hardhat_stopImpersonatingAccount", [READ_ONLY[0]]);
    };

    it("every block's state root is the same whether or not the chain was read before it", async () => {
      await reads(read, 0);
      await block(0);
      await reads(read, 1);
      await block(1, { from: DEV0, to: RECEIVER, value: "0x1" });
      await reads(read, 2);
      await block(2);
      await reads(read, 3);
      for (const h of [read, quiet]) await h.request("hardhat_impersonateAccount", [RICH]);
      await block(3, { from: RICH, to: RECEIVER, value: "0x2" });
      await reads(read, 4);
      await block(4);
      const head = BigInt(await quiet.request<string>("eth_blockNumber"));
      expect(BigInt(await read.request<string>("eth_blockNumber"))).to.equal(head);
      for (let n = head - 4n; n <= head; n++) {
        const [a, b] = await Promise.all([read, quiet].map((h) => h.request<{ stateRoot: string; hash: string }>("eth_getBlockByNumber", [hexN(n), false])));
        expect(a.stateRoot, `state root of block ${n}`).to.equal(b.stateRoot);
        expect(a.hash, `hash of block ${n}`).to.equal(b.hash);
      }
      // the reads still answer the remote's values
      expect(await read.request("eth_getBalance", [READ_ONLY[0], "latest"])).to.equal("0x1234");
      expect(await read.request("eth_getTransactionCount", [READ_ONLY[1], "pending"])).to.equal("0x7");
    });

    it("a replay of a block on the chain that was read reproduces its state root", async () => {
      const head = BigInt(await read.request<string>("eth_blockNumber"));
      let checked = 0;
      for (let n = head - 4n; n <= head; n++) {
        const block = await read.request<{ hash: string; stateRoot: string; transactions: string[] }>("eth_getBlockByNumber", [hexN(n), false]);
        if (block.transactions.length === 0) continue;
        // nothing happens in these blocks' end-block (no epoch ends), so the root after the last transaction is the block's
        const roots = await read.request<string[]>("debug_intermediateRoots", [block.hash]);
        expect(roots[roots.length - 1], `replayed root of block ${n}`).to.equal(block.stateRoot);
        checked++;
      }
      expect(checked).to.equal(2);
    });
  });
}
