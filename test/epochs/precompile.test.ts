/** The 0x…0900 precompile called directly, over a fake state manager (its ABI, storage layout and results). */
import type { ExecResult, PrecompileInput } from "@ethereumjs/evm";
import { Address } from "@ethereumjs/util";
import { expect } from "chai";
import { Interface, getBytes, hexlify, id, keccak256, toBeHex, zeroPadValue, concat } from "ethers";
import { EPOCHS_ABI, EPOCHS_PRECOMPILE, PER_RECORD_GAS, READ_GAS, WRITE_GAS, createEpochsPrecompile, registeredHooks } from "../../src/epochs/precompile";
import { type EpochInfo, seconds } from "../../src/epochs/types";
import { rec } from "./helpers";

/** A state manager with only storage: unset slots read as empty bytes, zero values delete (as EthereumJS's). */
class FakeState {
  readonly slots = new Map<string, Uint8Array>();
  async getStorage(address: Address, key: Uint8Array): Promise<Uint8Array> {
    return this.slots.get(address.toString() + hexlify(key)) ?? new Uint8Array();
  }
  async putStorage(address: Address, key: Uint8Array, value: Uint8Array): Promise<void> {
    const k = address.toString() + hexlify(key);
    let i = 0;
    while (i < value.length && value[i] === 0) i++;
    if (i === value.length) this.slots.delete(k);
    else this.slots.set(k, value.slice(i));
  }
}

const A = "0x00000000000000000000000000000000000000aa";
const B = "0x00000000000000000000000000000000000000bb";
const C = "0x00000000000000000000000000000000000000cc";

function setup(infos: EpochInfo[] = [], opts: { isStatic?: boolean } = {}) {
  const state = new FakeState();
  let caller = A;
  const fn = createEpochsPrecompile({ caller: () => getBytes(caller), infos: async () => infos, isStatic: () => opts.isStatic === true, delegated: () => false });
  const call = (data: string, gasLimit = 1_000_000n): Promise<ExecResult> => Promise.resolve(fn({ data: getBytes(data), gasLimit, _EVM: { stateManager: state } } as unknown as PrecompileInput));
  const as = (addr: string) => {
    caller = addr;
  };
  const list = async () => (await registeredHooks({ get: (k) => state.getStorage(new Address(getBytes(EPOCHS_PRECOMPILE)), k) })).map((a) => hexlify(a));
  return { state, call, as, list };
}

const enc = (name: string, args: unknown[] = []) => EPOCHS_ABI.encodeFunctionData(name, args);
const dec = (name: string, r: ExecResult) => EPOCHS_ABI.decodeFunctionResult(name, hexlify(r.returnValue));
const reason = (r: ExecResult) => new Interface(["error Error(string)"]).decodeErrorResult("Error", hexlify(r.returnValue))[0];

describe("epochs precompile", () => {
  it("epochInfos() returns every record with times in Unix seconds (floored)", async () => {
    const day = rec("day", 86400, 1000, { currentEpoch: 3n, epochCountingStarted: true, currentEpochStartTime: { seconds: 2000n, nanos: 5 }, currentEpochStartHeight: 12n });
    const week = rec("week", 604800, 0, { startTime: { seconds: -62135596800n, nanos: 0 } });
    const { call } = setup([day, week]);
    const r = await call(enc("epochInfos"));
    expect(r.exceptionError).to.equal(undefined);
    expect(r.executionGasUsed).to.equal(READ_GAS + 2n * PER_RECORD_GAS);
    const [rows] = dec("epochInfos", r);
    expect(rows.map((x: unknown[]) => [...x])).to.deep.equal([
      ["day", 1000n, 86400n, 3n, 2000n, true, 12n],
      ["week", -62135596800n, 604800n, 0n, -62135596800n, false, 0n],
    ]);
  });

  it("currentEpoch(string) returns the number, and reverts `epoch info not found: ID` for an unknown one", async () => {
    const { call } = setup([rec("day", 1, 0, { currentEpoch: 7n })]);
    expect(dec("currentEpoch", await call(enc("currentEpoch", ["day"])))[0]).to.equal(7n);
    const r = await call(enc("currentEpoch", ["Day"]));
    expect(r.exceptionError?.error).to.equal("revert");
    expect(reason(r)).to.equal("epoch info not found: Day");
  });

  it("registerHooks()/unregisterHooks() keep the ordered list in the precompile's storage and emit the events", async () => {
    const { call, as, list, state } = setup();
    for (const who of [A, B, C]) {
      as(who);
      const r = await call(enc("registerHooks"));
      expect(dec("registerHooks", r)[0], who).to.equal(true);
      expect(r.executionGasUsed).to.equal(WRITE_GAS);
      expect(r.logs).to.have.length(1);
      const [address, topics, data] = r.logs![0];
      expect(hexlify(address)).to.equal(EPOCHS_PRECOMPILE);
      expect(topics.map((t) => hexlify(t))).to.deep.equal([id("HooksRegistered(address)"), zeroPadValue(who, 32)]);
      expect(data).to.deep.equal(new Uint8Array());
    }
    expect(await list()).to.deep.equal([A, B, C]);
    expect(dec("hooks", await call(enc("hooks")))[0].map((a: string) => a.toLowerCase())).to.deep.equal([A, B, C]);

    // again: false and no event
    as(B);
    const again = await call(enc("registerHooks"));
    expect(dec("registerHooks", again)[0]).to.equal(false);
    expect(again.logs ?? []).to.deep.equal([]);

    // the documented layout: slot 0 = n, keccak(0)+i = hook i, keccak(addr ‖ 1) = index + 1
    const pre = EPOCHS_PRECOMPILE;
    const slot = (n: bigint) => toBeHex(n, 32);
    const base = BigInt(keccak256(slot(0n)));
    expect(hexlify(state.slots.get(pre + slot(0n))!)).to.equal("0x03");
    expect(hexlify(state.slots.get(pre + slot(base + 1n))!)).to.equal("0xbb");
    expect(hexlify(state.slots.get(pre + keccak256(concat([zeroPadValue(C, 32), slot(1n)])))!)).to.equal("0x03");

    // unregister the middle one: the others keep their order, its slots are cleared
    const r = await call(enc("unregisterHooks"));
    expect(dec("unregisterHooks", r)[0]).to.equal(true);
    expect(hexlify(r.logs![0][1][0])).to.equal(id("HooksUnregistered(address)"));
    expect(await list()).to.deep.equal([A, C]);
    expect(state.slots.has(pre + slot(base + 2n))).to.equal(false);
    expect(state.slots.has(pre + keccak256(concat([zeroPadValue(B, 32), slot(1n)])))).to.equal(false);
    expect(dec("unregisterHooks", await call(enc("unregisterHooks")))[0]).to.equal(false);

    for (const who of [A, C]) {
      as(who);
      await call(enc("unregisterHooks"));
    }
    expect(await list()).to.deep.equal([]);
    expect(state.slots.size).to.equal(0);
  });

  it("runs out of gas below its price, and refuses writes in a static call", async () => {
    const { call, list } = setup();
    const oog = await call(enc("registerHooks"), WRITE_GAS - 1n);
    expect(oog.exceptionError?.error).to.equal("out of gas");
    expect(oog.executionGasUsed).to.equal(WRITE_GAS - 1n);
    expect((await call(enc("hooks"), 100n)).exceptionError?.error).to.equal("out of gas");
    expect(await list()).to.deep.equal([]);

    const s = setup([], { isStatic: true });
    const r = await s.call(enc("registerHooks"));
    expect(r.exceptionError?.error).to.equal("revert");
    expect(reason(r)).to.equal("epochs precompile: registerHooks in a static call");
    expect(await s.list()).to.deep.equal([]);
  });

  it("reverts with a reason for an unknown selector, empty calldata and malformed arguments", async () => {
    const { call } = setup([rec("day", 1, 0)]);
    for (const data of ["0x", "0x1234", "0x12345678"]) {
      const r = await call(data);
      expect(r.exceptionError?.error, data).to.equal("revert");
      expect(reason(r), data).to.equal("epochs precompile: unknown function selector");
    }
    const short = await call(enc("currentEpoch", ["day"]).slice(0, 20));
    expect(reason(short)).to.equal("epochs precompile: invalid arguments for currentEpoch");
  });

  it("keeps the selectors of contracts/IEpochs.sol", () => {
    expect(EPOCHS_ABI.getFunction("epochInfos")!.selector).to.equal(id("epochInfos()").slice(0, 10));
    expect(EPOCHS_ABI.getFunction("currentEpoch")!.selector).to.equal(id("currentEpoch(string)").slice(0, 10));
    expect(EPOCHS_ABI.getFunction("hooks")!.selector).to.equal(id("hooks()").slice(0, 10));
    expect(EPOCHS_ABI.getFunction("registerHooks")!.selector).to.equal(id("registerHooks()").slice(0, 10));
    expect(EPOCHS_ABI.getFunction("unregisterHooks")!.selector).to.equal(id("unregisterHooks()").slice(0, 10));
    expect(seconds(1n)).to.deep.equal({ seconds: 1n, nanos: 0 });
  });
});
