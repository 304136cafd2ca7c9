/**
 * What an advance did (`epochs.advanceWithReport`, and the hook matchers of
 * src/host/helpers/epochs-matchers.ts): the blocks it mined, each epoch tick, each hook call —
 * contract, hook, gas, success, and for a failure the chain's reason, the revert data and, where the
 * node explains failures, Hardhat's message and Solidity frames. Read from the blocks' epoch events
 * (`epochs_blockEvents`, docs/epochs.md), so it works in-process and against a running node.
 */

/** One block's module events, as `epochs_blockEvents` answers. */
export interface BlockEventsJson {
  height: string;
  hash: string;
  begin_block_events: Array<{ type: string; attributes: Array<{ key: string; value: string }> }>;
  end_block_events: Array<{ type: string; attributes: Array<{ key: string; value: string }> }>;
}

/** One hook call: an `epoch_hook` or `epoch_hook_failed` event. */
export interface HookCallReport {
  block: bigint;
  /** The contract's checksummed address; `typescript` for a TypeScript hook. */
  contract: string;
  hook: "beforeEpochStart" | "afterEpochEnd";
  identifier: string;
  epoch: bigint;
  /** Gas the call used (0 for a TypeScript hook). */
  gasUsed: bigint;
  success: boolean;
  /** A failure in the chain's words: `execution reverted: x`, `out of gas`, … */
  reason?: string;
  /** The hex the hook reverted with, when it reverted with data. */
  revertData?: string;
  /** Hardhat's message for the failure (in-process and on `npx hardhat node`). */
  error?: string;
  /** Hardhat's Solidity frames of the failure, innermost first. */
  stack?: string[];
}

/** One epoch tick: an epoch start or end event (its type as the profile's chain names it). */
export interface EpochTickReport {
  block: bigint;
  type: string;
  /** The timer, when the event names it (the Cosmos SDK's typed events do not). */
  identifier?: string;
  epoch?: bigint;
  /** Every attribute, as the event has it. */
  attributes: Record<string, string>;
}

export interface AdvanceReport {
  identifier: string;
  /** The timer's epoch number after the advance (what `advance` returns). */
  epoch: bigint;
  /** The blocks the advance mined: `fromBlock` to `toBlock`, inclusive. */
  fromBlock: bigint;
  toBlock: bigint;
  ticks: EpochTickReport[];
  hooks: HookCallReport[];
}

const HOOK_TYPES = new Set(["epoch_hook", "epoch_hook_failed"]);

/** The report of blocks `fromBlock`…`toBlock`, read with `blockEvents`. */
export async function readAdvanceReport(identifier: string, epoch: bigint, fromBlock: bigint, toBlock: bigint, blockEvents: (n: bigint) => Promise<BlockEventsJson | null>): Promise<AdvanceReport> {
  const report: AdvanceReport = { identifier, epoch, fromBlock, toBlock, ticks: [], hooks: [] };
  for (let n = fromBlock; n <= toBlock; n++) {
    const events = await blockEvents(n);
    if (events === null) continue;
    for (const ev of [...events.begin_block_events, ...events.end_block_events]) {
      const attrs = Object.fromEntries(ev.attributes.map((a) => [a.key, a.value]));
      if (HOOK_TYPES.has(ev.type)) report.hooks.push(hookCall(n, ev.type === "epoch_hook", attrs));
      else if (/epoch_(start|end)|EventEpoch(Start|End)/.test(ev.type)) report.ticks.push(tick(n, ev.type, attrs));
    }
  }
  return report;
}

function hookCall(block: bigint, success: boolean, a: Record<string, string>): HookCallReport {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- ethers loads when a report is read, not with the config (test/e2e/load-cost.test.ts)
  const { getAddress, isAddress } = require("ethers/address") as typeof import("ethers/address");
  const call: HookCallReport = {
    block,
    contract: isAddress(a.address) ? getAddress(a.address) : a.address,
    hook: a.hook === "BeforeEpochStart" ? "beforeEpochStart" : "afterEpochEnd",
    identifier: a.identifier,
    epoch: BigInt(a.epoch_number ?? "0"),
    gasUsed: BigInt(a.gas_used ?? "0"),
    success,
  };
  if (a.reason !== undefined) call.reason = a.reason;
  if (a.revert_data !== undefined) call.revertData = a.revert_data;
  if (a.error !== undefined) call.error = a.error;
  if (a.stack !== undefined) call.stack = a.stack.split("\n");
  return call;
}

function tick(block: bigint, type: string, a: Record<string, string>): EpochTickReport {
  const t: EpochTickReport = { block, type, attributes: a };
  if (a.identifier !== undefined) t.identifier = a.identifier;
  // the SDK's typed events quote their values (JSON)
  const n = (a.epoch_number ?? "").replace(/^"|"$/g, "");
  if (/^\d+$/.test(n)) t.epoch = BigInt(n);
  return t;
}

/** How to read the report behind each promise `advance` returned, for the matchers (the promise stays a Promise<bigint>). */
const REPORTS = new WeakMap<object, () => Promise<AdvanceReport>>();

/** `epoch`, the promise `advance` hands out, remembered with how to read its advance's report. */
export function withReport(epoch: Promise<bigint>, report: () => Promise<AdvanceReport>): Promise<bigint> {
  REPORTS.set(epoch, report);
  return epoch;
}

/** The report of what the matchers are given: a promise `advance` returned, a report, or a promise of one. */
export async function reportOf(subject: unknown): Promise<AdvanceReport | undefined> {
  const read = subject !== null && typeof subject === "object" ? REPORTS.get(subject) : undefined;
  if (read !== undefined) return read();
  const value: unknown = await subject;
  if (value !== null && typeof value === "object" && "hooks" in value && "ticks" in value) return value as AdvanceReport;
  return undefined;
}
