import { expect } from "chai";
import { createTx, type TypedTransaction } from "@ethereumjs/tx";
import { hexToBytes } from "@ethereumjs/util";
import { createChainCommon } from "../../../src/chain/common";
import { nativeCrypto } from "../../../src/chain/crypto";
import { type PooledTx, TxPool, effectiveTip } from "../../../src/chain/txpool";

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
          expect(pool.ordered(25n, order).map((p) => p.hash), `step ${step}, ${order}`).to.deep.equal(referenceOrder(pool, 25n, order));
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
});
