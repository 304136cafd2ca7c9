/** Hook fan-out and isolation: MultiEpochHooks, TypeScript hooks, and contract hooks over a fake EVM. */
import { expect } from "chai";
import { AbiCoder, getBytes, hexlify } from "ethers";
import type { SystemCallArgs, SystemCallResult } from "../../src/chain/base/module";
import { ContractHooks } from "../../src/epochs/contract-hooks";
import { MultiEpochHooks, TypeScriptHooks } from "../../src/epochs/hooks";
import { EPOCHS_PRECOMPILE, HOOKS_ABI, HOOKS_COUNT_SLOT, hookElementSlot } from "../../src/epochs/precompile";
import type { EpochHooks } from "../../src/epochs/types";
import { FakeChain, eventText, rec } from "./helpers";

const attrs = (chain: FakeChain) => chain.events.map(eventText);

describe("MultiEpochHooks", () => {
  it("runs members in order; a throwing member is recorded, its store writes undone, and the others go on", async () => {
    const chain = new FakeChain();
    const calls: string[] = [];
    const member = (name: string, fail: boolean): EpochHooks => ({
      beforeEpochStart: (_ctx, id, n) => {
        calls.push(`${name}:B:${id}:${n}`);
        chain.keeper.setEpochInfo(rec(`${name}-wrote`, 1, 0));
        if (fail) throw new Error(`${name} broke`);
      },
      afterEpochEnd: async (_ctx, id, n) => {
        calls.push(`${name}:A:${id}:${n}`);
        if (fail) return Promise.reject(new Error(`${name} broke later`));
      },
    });
    const multi = new MultiEpochHooks([member("one", false), member("two", true), member("three", false)]);
    const ctx = chain.ctx(5, 100, "begin_block");
    await multi.beforeEpochStart(ctx, "day", 3n);
    await multi.afterEpochEnd(chain.ctx(5, 100, "end_block"), "day", 3n);
    expect(calls).to.deep.equal(["one:B:day:3", "two:B:day:3", "three:B:day:3", "one:A:day:3", "two:A:day:3", "three:A:day:3"]);
    expect(chain.keeper.identifiers()).to.deep.equal(["one-wrote", "three-wrote"]);
    expect(attrs(chain)).to.deep.equal([
      "5:begin_block:epoch_hook_failed:identifier=day,hook=BeforeEpochStart,address=typescript,epoch_number=3,gas_used=0,reason=two broke",
      "5:end_block:epoch_hook_failed:identifier=day,hook=AfterEpochEnd,address=typescript,epoch_number=3,gas_used=0,reason=two broke later",
    ]);
  });

  it("an epoch still advances when every hook fails", async () => {
    const chain = new FakeChain();
    chain.keeper.setEpochInfo(rec("e", 10, 0));
    const broken: EpochHooks = {
      beforeEpochStart: () => {
        throw new Error("no");
      },
      afterEpochEnd: () => {
        throw new Error("no");
      },
    };
    const hooks = new MultiEpochHooks([broken]);
    for (const [h, t] of [
      [1, 100],
      [2, 200],
      [3, 300],
    ])
      await chain.block(h, t, hooks, "spec");
    expect(chain.keeper.getEpochInfo("e").info?.currentEpoch).to.equal(2n);
    expect(chain.events.filter((e) => e.event.type === "epoch_hook_failed")).to.have.length(3);
  });
});

describe("TypeScriptHooks", () => {
  it("calls functions in order with (identifier, number, ctx); removal works, even from inside a hook", async () => {
    const chain = new FakeChain();
    const ts = new TypeScriptHooks();
    const calls: string[] = [];
    const offFirst = ts.onBeforeEpochStart((id, n, ctx) => {
      calls.push(`first ${id} ${n} h${ctx.height}`);
      offFirst();
    });
    ts.onBeforeEpochStart(() => {
      throw new Error("second fails");
    });
    ts.onBeforeEpochStart((id) => void calls.push(`third ${id}`));
    const offAfter = ts.onAfterEpochEnd((id, n) => void calls.push(`after ${id} ${n}`));
    await ts.beforeEpochStart(chain.ctx(1, 1, "begin_block"), "week", 1n);
    await ts.beforeEpochStart(chain.ctx(2, 2, "begin_block"), "week", 2n);
    await ts.afterEpochEnd(chain.ctx(2, 2, "end_block"), "week", 2n);
    offAfter();
    await ts.afterEpochEnd(chain.ctx(3, 3, "end_block"), "week", 3n);
    expect(calls).to.deep.equal(["first week 1 h1", "third week", "third week", "after week 2"]);
    expect(chain.events.map((e) => e.event.attributes.find((a) => a.key === "reason")?.value)).to.deep.equal(["second fails", "second fails"]);
  });
});

describe("ContractHooks", () => {
  const hookA = getBytes("0x00000000000000000000000000000000000000aa");
  const hookB = getBytes("0x00000000000000000000000000000000000000bb");
  const word = (v: bigint) => getBytes(AbiCoder.defaultAbiCoder().encode(["uint256"], [v]));

  function registered(addrs: Uint8Array[]): Map<string, Uint8Array> {
    const pre = EPOCHS_PRECOMPILE.slice(2);
    const m = new Map<string, Uint8Array>();
    m.set(pre + hexlify(HOOKS_COUNT_SLOT).slice(2), word(BigInt(addrs.length)));
    addrs.forEach((a, i) => m.set(pre + hexlify(hookElementSlot(BigInt(i))).slice(2), word(BigInt(hexlify(a)))));
    return m;
  }

  it("system-calls each registered contract in order from the precompile address and records each call", async () => {
    const calls: SystemCallArgs[] = [];
    const log = { address: hookA, topics: [new Uint8Array(32).fill(1)], data: new Uint8Array([7]) };
    const systemCall = async (a: SystemCallArgs): Promise<SystemCallResult> => {
      calls.push(a);
      if (hexlify(a.to) === hexlify(hookB)) return { success: false, gasUsed: 21_000n, returnValue: new Uint8Array(), logs: [], error: "execution reverted: hook says no" };
      return { success: true, gasUsed: 1234n, returnValue: new Uint8Array(), logs: [log] };
    };
    const chain = new FakeChain({ systemCall, storage: registered([hookB, hookA]) });
    const hooks = new ContractHooks(500_000n);
    await hooks.afterEpochEnd(chain.ctx(9, 900, "end_block"), "week", 4n);

    expect(calls.map((c) => hexlify(c.to))).to.deep.equal([hexlify(hookB), hexlify(hookA)]);
    for (const c of calls) {
      expect(hexlify(c.caller)).to.equal(EPOCHS_PRECOMPILE);
      expect(c.gasLimit).to.equal(500_000n);
      const parsed = HOOKS_ABI.parseTransaction({ data: hexlify(c.data) })!;
      expect([parsed.name, parsed.args[0], parsed.args[1]]).to.deep.equal(["afterEpochEnd", "week", 4n]);
    }
    expect(attrs(chain)).to.deep.equal([
      "9:end_block:epoch_hook_failed:identifier=week,hook=AfterEpochEnd,address=0x00000000000000000000000000000000000000bb,epoch_number=4,gas_used=21000,reason=execution reverted: hook says no",
      "9:end_block:epoch_hook:identifier=week,hook=AfterEpochEnd,address=0x00000000000000000000000000000000000000aa,epoch_number=4,gas_used=1234",
    ]);
    expect(chain.events[0].event.logs).to.deep.equal([]);
    expect(chain.events[1].event.logs).to.deep.equal([log]);
  });

  it("encodes beforeEpochStart(string,int64) with the default gas limit, and does nothing without registrations", async () => {
    const calls: SystemCallArgs[] = [];
    const systemCall = async (a: SystemCallArgs): Promise<SystemCallResult> => {
      calls.push(a);
      return { success: true, gasUsed: 1n, returnValue: new Uint8Array(), logs: [] };
    };
    const none = new FakeChain({ systemCall });
    await new ContractHooks().beforeEpochStart(none.ctx(1, 1, "begin_block"), "day", 1n);
    expect(calls).to.deep.equal([]);
    expect(none.events).to.deep.equal([]);

    const one = new FakeChain({ systemCall, storage: registered([hookA]) });
    await new ContractHooks().beforeEpochStart(one.ctx(1, 1, "begin_block"), "day", 1n);
    expect(calls).to.have.length(1);
    expect(calls[0].gasLimit).to.equal(3_000_000n);
    expect(hexlify(calls[0].data)).to.equal(HOOKS_ABI.encodeFunctionData("beforeEpochStart", ["day", 1n]));
    expect(hexlify(calls[0].data).slice(0, 10)).to.equal(HOOKS_ABI.getFunction("beforeEpochStart")!.selector);
  });
});
