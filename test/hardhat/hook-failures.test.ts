/**
 * A failing epoch hook is told as a failed transaction is, in the tests users write: hardhat-ethers
 * deploys a hook (it registers itself through the precompile), the network helpers move time so an
 * epoch ends, and `hre.epochs.blockEvents` shows `epoch_hook_failed` with Hardhat's message (`error`)
 * and Solidity frames (`stack`), the same as calling the hook in a transaction gives. A hook whose code
 * no compilation knows keeps its `reason` and has no frames.
 */
import { expect } from "chai";
import { readFileSync } from "node:fs";
import hre, { ethers } from "hardhat";
import { type SnapshotRestorer, takeSnapshot, time } from "@nomicfoundation/hardhat-network-helpers";
import type { Contract } from "ethers";

const SOURCE = "contracts/test/FailingHook.sol";
const MODE = { Reason: 0, Custom: 1, Panic: 2, Bare: 3, Nested: 4 } as const;

/** The line of FailingHook.sol holding `text` (1-based, as Hardhat prints it). */
function lineOf(text: string): number {
  const i = readFileSync(SOURCE, "utf8")
    .split("\n")
    .findIndex((l) => l.includes(text));
  if (i < 0) throw new Error(`${text} is not in ${SOURCE}`);
  return i + 1;
}

type Attributes = Record<string, string>;

/**
 * Moves time a day at a time (one block each, `time.increase`) until the hook at `address` failed in
 * `hook`; its event's attributes. At most four blocks: a day epoch ends (and starts) in the first two.
 */
async function failedHook(address: string, hook = "AfterEpochEnd"): Promise<Attributes> {
  for (let i = 0; i < 4; i++) {
    await time.increase(86_400 + 60);
    const events = await hre.epochs.blockEvents("latest");
    for (const e of [...(events?.begin_block_events ?? []), ...(events?.end_block_events ?? [])]) {
      const a: Attributes = Object.fromEntries(e.attributes.map((x) => [x.key, x.value]));
      if (e.type === "epoch_hook_failed" && a.address === address.toLowerCase() && a.hook === hook) return a;
    }
  }
  throw new Error(`no failed ${hook} of ${address} in four days`);
}

/** What the same call made as a transaction throws (hardhat-ethers passes the provider's SolidityError through). */
async function asTransaction(hook: Contract, epochNumber: bigint): Promise<{ message: string; frames: string[] }> {
  try {
    await hook.afterEpochEnd("day", epochNumber);
  } catch (err) {
    const e = err as Error;
    return {
      message: e.message,
      frames: (e.stack ?? "")
        .split("\n")
        .map((l) => l.trim())
        .filter((l) => /\.sol:\d+\)$/.test(l)),
    };
  }
  throw new Error("expected the transaction to fail");
}

describe("a failing epoch hook is told in Hardhat's words (in-process)", function () {
  let snapshot: SnapshotRestorer;
  beforeEach(async () => {
    snapshot = await takeSnapshot();
  });
  afterEach(async () => {
    await snapshot.restore();
  });

  const deploy = async (mode: number) => (await ethers.deployContract("FailingHook", [mode])) as unknown as Contract;

  it("a reason string: the message and the hook's frame, as the same call in a transaction gives them", async () => {
    const hook = await deploy(MODE.Reason);
    const a = await failedHook(await hook.getAddress());
    expect(a.reason).to.equal("execution reverted: FailingHook: not now");
    expect(a.error).to.equal("VM Exception while processing transaction: reverted with reason string 'FailingHook: not now'");
    expect(a.stack).to.equal(`at FailingHook.afterEpochEnd (${SOURCE}:${lineOf('revert("FailingHook: not now")')})`);
    const tx = await asTransaction(hook, BigInt(a.epoch_number));
    expect([a.error, a.stack.split("\n")]).to.deep.equal([tx.message, tx.frames]);
  });

  it("prints the failing hook's console.log lines once (explaining it re-runs it silently)", async () => {
    await deploy(MODE.Reason);
    const lines: string[] = [];
    const original = console.log;
    console.log = (...args: unknown[]) => lines.push(args.map(String).join(" "));
    try {
      await time.increase(86_400 + 60);
      await time.increase(86_400 + 60);
    } finally {
      console.log = original;
    }
    // one day epoch ended in these two blocks: one afterEpochEnd call, one line (other files' hooks may print too)
    expect(lines.filter((l) => l.startsWith("FailingHook"))).to.deep.equal(["FailingHook.afterEpochEnd day"]);
  });

  it("a custom error, decoded with its arguments", async () => {
    const hook = await deploy(MODE.Custom);
    const a = await failedHook(await hook.getAddress());
    expect(a.reason).to.equal("execution reverted");
    expect(a.error).to.equal(`VM Exception while processing transaction: reverted with custom error 'HookRefused("day", ${a.epoch_number})'`);
    expect(a.stack).to.equal(`at FailingHook.afterEpochEnd (${SOURCE}:${lineOf("revert HookRefused(")})`);
    const tx = await asTransaction(hook, BigInt(a.epoch_number));
    expect([a.error, a.stack.split("\n")]).to.deep.equal([tx.message, tx.frames]);
  });

  it("a panic, at the line of the overflowing addition", async () => {
    const hook = await deploy(MODE.Panic);
    const a = await failedHook(await hook.getAddress());
    expect(a.error).to.equal("VM Exception while processing transaction: reverted with panic code 0x11 (Arithmetic operation overflowed outside of an unchecked block)");
    expect(a.stack).to.equal(`at FailingHook.afterEpochEnd (${SOURCE}:${lineOf("type(uint256).max + calls")})`);
  });

  it("a failure passed on from a call the hook made: both frames, innermost first", async () => {
    const hook = await deploy(MODE.Nested);
    const a = await failedHook(await hook.getAddress());
    expect(a.reason).to.equal("execution reverted: FailingHook: checked");
    expect(a.stack.split("\n")).to.deep.equal([
      `at FailingHook.check (${SOURCE}:${lineOf("require(epochNumber < 0")})`,
      `at FailingHook.afterEpochEnd (${SOURCE}:${lineOf("this.check(epochNumber)")})`,
    ]);
    const tx = await asTransaction(hook, BigInt(a.epoch_number));
    expect([a.error, a.stack.split("\n")]).to.deep.equal([tx.message, tx.frames]);
  });

  it("a revert without a reason", async () => {
    const hook = await deploy(MODE.Bare);
    const a = await failedHook(await hook.getAddress());
    expect([a.reason, a.error]).to.deep.equal(["execution reverted", "Transaction reverted without a reason string"]);
    expect(a.stack).to.equal(`at FailingHook.afterEpochEnd (${SOURCE}:${lineOf("        revert();")})`);
  });

  it("a hook that runs out of gas: Hardhat's words for it, no frames (as for a transaction)", async () => {
    const hook = await ethers.deployContract("RevertingHook", [true]);
    const a = await failedHook(await hook.getAddress(), "BeforeEpochStart");
    expect([a.reason, a.gas_used, a.error]).to.deep.equal(["out of gas", "3000000", "Transaction ran out of gas"]);
    expect(a).to.not.have.property("stack");
  });

  it("a hook of code no compilation knows (deployed from raw bytecode): its reason and Hardhat's message, no stack", async () => {
    const [me] = await ethers.getSigners();
    // runtime code: copy Error("raw") from the code itself and revert with it
    const reason = ethers.AbiCoder.defaultAbiCoder().encode(["string"], ["raw"]).slice(2);
    const data = `08c379a0${reason}`;
    const size = hex2(data.length / 2);
    // PUSH2 size, PUSH1 14, PUSH1 0, CODECOPY, PUSH2 size, PUSH1 0, REVERT: 14 bytes, the revert data after them
    const code = `61${size}600e60003961${size}6000fd${data}`;
    // the same pattern with RETURN deploys it
    const init = `61${hex2(code.length / 2)}600e60003961${hex2(code.length / 2)}6000f3${code}`;
    const deployed = await (await me.sendTransaction({ data: `0x${init}` })).wait();
    const address = deployed!.contractAddress!;
    expect(await ethers.provider.getCode(address)).to.equal(`0x${code}`);
    await hre.epochs.registerHooks(address);
    const a = await failedHook(address);
    expect(a.reason).to.equal("execution reverted: raw");
    expect(a.error).to.equal("VM Exception while processing transaction: reverted with reason string 'raw'");
    expect(a).to.not.have.property("stack");
  });
});

function hex2(n: number): string {
  return n.toString(16).padStart(4, "0");
}
