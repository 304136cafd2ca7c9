import { expect } from "chai";
import { createTx, type TypedTransaction } from "@ethereumjs/tx";
import { hexToBytes } from "@ethereumjs/util";
import { createChainCommon } from "../../src/chain/engine/common";
import { nativeCrypto } from "../../src/chain/base/crypto";
import { type PooledTx, TxPool, effectiveTip } from "../../src/chain/pool/txpool";

const KEY = hexToBytes("0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d");
const common = createChainCommon(9000n, "osaka", nativeCrypto());

/** A signed transaction (its signer does not matter here: the pool takes the sender it is given). */
function tx(nonce: bigint, maxFee: bigint, tip: bigint, salt: number): TypedTransaction {
  return createTx({ type: 2, nonce, maxFeePerGas: maxFee, maxPriorityFeePerGas: tip, gasLimit: 21000n, value: BigInt(salt) }, { common }).sign(KEY, false);
}

/** The plain definition of mining order: repeatedly the best head among all senders. */
function referenceOrder(pool: TxPool, baseFee: bigint, order: "priority" | "fifo"): string[] {
  const bySender = new Map<string, PooledTx[]>();
  for (const p of pool.pending()) bySender.set(p.sender, [...(bySender.get(p.sender) ?? []), p]);
  const heads = [...bySender.values()].map((l) => ({ l, i: 0 }));
  const out: string[] = [];
  for (;;) {
    let best: { l: PooledTx[]; i: number } | undefined;
    for (const h of heads) {
      if (h.i >= h.l.length) continue;
      if (best === undefined) {
        best = h;
        continue;
      }
      const a = h.l[h.i];
      const b = best.l[best.i];
      const ta = effectiveTip(a.tx, baseFee);
      const tb = effectiveTip(b.tx, baseFee);
      if (order === "priority" ? ta > tb || (ta === tb && a.seq < b.seq) : a.seq < b.seq) best = h;
    }
    if (best === undefined) return out;
    out.push(best.l[best.i++].hash);
  }
}

function recount(pool: TxPool): { pending: number; queued: number } {
  return { pending: pool.pending().length, queued: pool.queued().length };
}

describe("chain: transaction pool", () => {
  it("keeps its counts equal to a recount, and orders as the plain definition, through adds, removals, blocks and restores", async () => {
    let seed = 7;
    const rand = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const pool = new TxPool({ globalPending: 10_000, globalQueued: 10_000, accountQueued: 1000 });
    const senders = Array.from({ length: 12 }, (_, i) => `0x${(i + 1).toString(16).padStart(40, "0")}`);
    const accountNonce = new Map(senders.map((s) => [s, 0n]));
    let salt = 0;
    for (let step = 0; step < 400; step++) {
      const s = senders[rand(senders.length)];
      const op = rand(10);
      if (op < 8) {
        // a next nonce, a nonce behind a gap, or a replacement that pays more
        const base = accountNonce.get(s) as bigint;
        const nonce = base + BigInt(rand(6));
        const fee = 10n + BigInt(rand(40));
        try {
          pool.add(tx(nonce, fee * 2n, fee, salt++), s, base);
        } catch {
          // underpriced replacements are refused: fine, the counts must still hold
        }
      } else if (op < 9) {
        const all = pool.snapshot();
        if (all.length > 0) pool.remove(all[rand(all.length)].hash);
      } else {
        // a block mined some of a sender's transactions
        accountNonce.set(s, (accountNonce.get(s) as bigint) + BigInt(rand(3)));
        await pool.update(async (x) => accountNonce.get(x) as bigint);
      }
      expect(pool.size, `step ${step}`).to.deep.equal(recount(pool));
      if (step % 20 === 0) {
        for (const order of ["priority", "fifo"] as const) {
          expect(
            pool.ordered(25n, order).map((p) => p.hash),
            `step ${step}, ${order}`,
          ).to.deep.equal(referenceOrder(pool, 25n, order));
        }
      }
    }
    expect(pool.size.pending + pool.size.queued, "transactions left in the pool").to.be.greaterThan(5);
    const snap = pool.snapshot();
    await pool.restore(snap, async (x) => accountNonce.get(x) as bigint);
    expect(pool.size).to.deep.equal(recount(pool));
    pool.clear();
    expect(pool.size).to.deep.equal({ pending: 0, queued: 0 });
  });

  it("refuses a transaction when the pool's executable slots are taken, counting every sender", () => {
    const pool = new TxPool({ globalPending: 3, globalQueued: 1, accountQueued: 1 });
    pool.add(tx(0n, 20n, 1n, 1), "0xa", 0n);
    pool.add(tx(0n, 20n, 1n, 2), "0xb", 0n);
    pool.add(tx(1n, 20n, 1n, 3), "0xb", 0n);
    expect(() => pool.add(tx(0n, 20n, 1n, 4), "0xc", 0n)).to.throw("txpool is full");
    expect(pool.add(tx(5n, 20n, 1n, 5), "0xc", 0n)).to.equal("queued");
    expect(() => pool.add(tx(6n, 20n, 1n, 6), "0xd", 0n)).to.throw("txpool is full");
    expect(pool.size).to.deep.equal({ pending: 3, queued: 1 });
  });

  it("admits the transaction that fills a gap, past a full future queue, and promotes what waited behind it", () => {
    const pool = new TxPool({ accountQueued: 3 });
    for (const n of [1n, 2n, 3n]) expect(pool.add(tx(n, 20n, 1n, Number(n)), "0xa", 0n)).to.equal("queued");
    expect(() => pool.add(tx(4n, 20n, 1n, 4), "0xa", 0n)).to.throw("txpool is full: account 0xa already has 3 transactions waiting behind a nonce gap (the limit is 3)");
    expect(pool.add(tx(0n, 20n, 1n, 0), "0xa", 0n)).to.equal("pending");
    expect(pool.size).to.deep.equal({ pending: 4, queued: 0 });
    expect(pool.ordered(0n, "fifo").map((p) => p.tx.nonce)).to.deep.equal([0n, 1n, 2n, 3n]);
    // executable transactions never count against the queue limit
    for (let n = 4n; n < 40n; n++) expect(pool.add(tx(n, 20n, 1n, Number(n)), "0xa", 0n)).to.equal("pending");
    expect(pool.size).to.deep.equal({ pending: 40, queued: 0 });
  });

  it("replaces a transaction only for a 10% bump of both fees, with geth's text", () => {
    const pool = new TxPool();
    pool.add(tx(0n, 100n, 10n, 1), "0xa", 0n);
    pool.add(tx(5n, 100n, 10n, 2), "0xa", 0n);
    for (const nonce of [0n, 5n]) {
      for (const [fee, tip] of [
        [109n, 11n],
        [110n, 10n],
        [100n, 100n],
      ]) {
        expect(() => pool.add(tx(nonce, fee, tip, 3), "0xa", 0n)).to.throw(
          `replacement transaction underpriced: nonce ${nonce} of 0xa is taken by a transaction paying 100 per gas (max fee) and 10 (tip); a replacement pays at least 10% more of both: 110 and 11`,
        );
      }
      const better = tx(nonce, 110n, 11n, 4);
      expect(pool.add(better, "0xa", 0n)).to.equal(nonce === 0n ? "pending" : "queued");
      expect(
        pool
          .snapshot()
          .filter((p) => p.tx.nonce === nonce)
          .map((p) => p.hash),
      ).to.deep.equal([`0x${Buffer.from(better.hash()).toString("hex")}`]);
    }
    // tiny fees still need to rise: at least one wei each
    pool.add(tx(1n, 1n, 1n, 5), "0xa", 0n);
    expect(() => pool.add(tx(1n, 1n, 1n, 6), "0xa", 0n)).to.throw(/^replacement transaction underpriced/);
    expect(pool.add(tx(1n, 2n, 2n, 7), "0xa", 0n)).to.equal("pending");
    expect(pool.size).to.deep.equal({ pending: 2, queued: 1 });
  });

  it("evicts the cheapest future transaction when the future queue is full, and refuses one that pays no more", () => {
    const pool = new TxPool({ globalQueued: 3 });
    pool.add(tx(2n, 30n, 1n, 1), "0xa", 0n);
    pool.add(tx(3n, 10n, 1n, 2), "0xa", 0n);
    pool.add(tx(7n, 10n, 1n, 3), "0xb", 0n);
    const cheap = tx(5n, 10n, 1n, 4);
    expect(() => pool.add(cheap, "0xc", 0n)).to.throw(
      "txpool is full: 3 transactions wait behind nonce gaps (the limit is 3) and none pays less than this one; send nonce 0 of 0xc first, or pay more",
    );
    // among the cheapest, the farthest nonce leaves first: 0xb's nonce 7
    pool.add(tx(5n, 20n, 1n, 5), "0xc", 0n);
    expect(
      pool
        .queued()
        .map((p) => `${p.sender}:${p.tx.nonce}`)
        .sort(),
    ).to.deep.equal(["0xa:2", "0xa:3", "0xc:5"]);
    // then 0xa's nonce 3 (the sender's own future transaction may be the one to leave)
    pool.add(tx(4n, 20n, 2n, 6), "0xa", 0n);
    expect(
      pool
        .queued()
        .map((p) => `${p.sender}:${p.tx.nonce}`)
        .sort(),
    ).to.deep.equal(["0xa:2", "0xa:4", "0xc:5"]);
    expect(pool.size).to.deep.equal(recount(pool));
    // executable transactions are not limited by the future queue
    expect(pool.add(tx(0n, 10n, 1n, 7), "0xd", 0n)).to.equal("pending");
  });

  it("keeps each account's executable floor when the executable slots are taken: the biggest holder gives up its last", () => {
    const pool = new TxPool({ globalPending: 6, accountSlots: 2 });
    for (let n = 0n; n < 5n; n++) pool.add(tx(n, 20n, 1n, Number(n)), "0xa", 0n);
    pool.add(tx(0n, 20n, 1n, 10), "0xb", 0n);
    expect(pool.size).to.deep.equal({ pending: 6, queued: 0 });
    // 0xc has none: it gets in, 0xa's nonce 4 leaves
    expect(pool.add(tx(0n, 20n, 1n, 11), "0xc", 0n)).to.equal("pending");
    expect(
      pool
        .pending()
        .filter((p) => p.sender === "0xa")
        .map((p) => p.tx.nonce),
    ).to.deep.equal([0n, 1n, 2n, 3n]);
    expect(pool.add(tx(1n, 20n, 1n, 12), "0xc", 0n)).to.equal("pending");
    expect(pool.pending().filter((p) => p.sender === "0xa").length).to.equal(3);
    // 0xc is at its floor now: refused, and 0xa keeps what it has
    expect(() => pool.add(tx(2n, 20n, 1n, 13), "0xc", 0n)).to.throw(
      "txpool is full: 6 executable transactions wait to be mined (the limit is 6) and account 0xc already has 2 of them (each account is sure of 2)",
    );
    expect(pool.size).to.deep.equal({ pending: 6, queued: 0 });
    expect(pool.size).to.deep.equal(recount(pool));
  });

  it("drops a queued transaction alone: the sender's other future transactions stay", () => {
    const pool = new TxPool();
    const keep = [tx(5n, 20n, 1n, 1), tx(6n, 20n, 1n, 2)];
    for (const t of keep) pool.add(t, "0xa", 0n);
    const gone = tx(7n, 20n, 1n, 3);
    pool.add(gone, "0xa", 0n);
    pool.remove(`0x${Buffer.from(gone.hash()).toString("hex")}`);
    expect(
      pool
        .queued()
        .map((p) => p.tx.nonce)
        .sort(),
    ).to.deep.equal([5n, 6n]);
    expect(pool.size).to.deep.equal({ pending: 0, queued: 2 });
  });
});
