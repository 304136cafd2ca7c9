/**
 * The bank's index of holders (src/cosmos/bank/keeper.ts): any ERC-20 transfer to a new address adds one,
 * so adding one must cost the same records whatever came before (a list in one record grew with each
 * transfer until it filled the 4 MiB a record holds).
 */
import { expect } from "chai";
import { Bank } from "../../src/cosmos/bank/keeper";
import { GasMeter, MeteredRecords } from "../../src/cosmos/common/records";
import { type ModuleEnv } from "../../src/cosmos/common/module-env";

function memoryEnv(): { env: ModuleEnv; written: () => number } {
  const slots = new Map<string, Uint8Array>();
  let written = 0;
  const gas = new GasMeter(2n ** 255n);
  const records = () =>
    new MeteredRecords(
      {
        get: async (k) => slots.get(Buffer.from(k).toString("hex")) ?? new Uint8Array(),
        put: async (k, v) => {
          written++;
          slots.set(Buffer.from(k).toString("hex"), v);
        },
      },
      gas,
    );
  const refuse = async (): Promise<never> => {
    throw new Error("no native coin here");
  };
  return { env: { height: 0n, time: 0n, gas, denom: "atest", records, balance: async () => 0n, send: refuse, mint: refuse, burn: refuse }, written: () => written };
}

const address = (i: number) => `0x${(i + 1).toString(16).padStart(40, "0")}`;

describe("the bank's index of holders", () => {
  it("adds a holder with the same storage writes whether it is the 2nd or the 300th, and lists them in order", async () => {
    const { env, written } = memoryEnv();
    const bank = new Bank(env);
    const cost: number[] = [];
    for (let i = 0; i < 300; i++) {
      const before = written();
      await bank.mint(address(i), "uatom", 1n);
      cost.push(written() - before);
    }
    expect(cost[299]).to.equal(cost[1]);
    // a second coin to a holder adds no index entry
    const before = written();
    await bank.mint(address(5), "uosmo", 1n);
    const again = written() - before;
    expect(again).to.be.lessThan(cost[1]);
    const holders = await bank.holders();
    expect(holders).to.have.length(300);
    expect(holders[299].toLowerCase()).to.equal(address(299));
  });
});
