/**
 * The node log's texts, as Hardhat's node writes them where it has an equivalent: a transaction's
 * section (what it did, hash, from, to, value, gas, block, console.log lines, the failure), a block
 * mined outside a transaction request, and the epochs that ticked in a block with their hooks.
 * Pure: data in, lines out (colours are added by the caller's `Paint`).
 */
import { formatUnits } from "ethers/utils";
import { type CustomErrorDecoder, failureText as hardhatFailureText } from "../solidity/failure-text";
import { EVENT_EPOCH_END, EVENT_EPOCH_START, SDK_EVENT_EPOCH_END, SDK_EVENT_EPOCH_START } from "../../epochs/abci";

/** Colours for a TTY; identity functions otherwise. */
export interface Paint {
  red(s: string): string;
  green(s: string): string;
  bold(s: string): string;
}

export const NO_PAINT: Paint = { red: (s) => s, green: (s) => s, bold: (s) => s };

/** Plain ANSI codes: the node prints them only when stdout is a terminal. */
export const ANSI: Paint = {
  red: (s) => `\u001b[31m${s}\u001b[39m`,
  green: (s) => `\u001b[32m${s}\u001b[39m`,
  bold: (s) => `\u001b[1m${s}\u001b[22m`,
};

/** One transaction as the log tells it. */
export interface TxStory {
  hash: string;
  from: string;
  /** Absent for a deployment. */
  to?: string;
  contractAddress?: string;
  value: bigint;
  gasUsed: bigint;
  gasLimit: bigint;
  /** 1 success, 0 failure. */
  status: number;
  /** The VM's error when it failed ("revert", "out of gas", …). */
  vmError?: string;
  returnData: Uint8Array;
  /** From ContractNames: the deployed contract, or the called contract and function. */
  name?: { contract: string; function?: string };
  consoleLines: string[];
  block: { number: bigint; hash: string };
  /** Solidity frames of a failure (`at Token.transfer (contracts/Token.sol:42)`), when the project's compilations locate it. */
  frames?: string[];
  /** Why a failure may not be the caller's doing, said under it (estimateNote). */
  note?: string;
}

/** A Cosmos module's precompile (staking 0x…0800 to 0x…08ff, epochs 0x…0900). */
const MODULE_PRECOMPILE = /^0x0{36}(08[0-9a-f]{2}|0900)$/i;

/**
 * What to say under a transaction to a module precompile that ran out of gas in a block whose begin
 * block did module work first (x/mint's provision and allocation, epoch ends): that work changed
 * state the call reads (a delegation then has rewards to withdraw), which an estimate made on the
 * head's state did not see. evmd estimates the same way (Evmos's staking precompile saw the same
 * failures: evmos/evmos#2271); undefined when the failure is not of that kind.
 */
export function estimateNote(tx: Pick<TxStory, "to" | "status" | "vmError">, beginEvents: ReadonlyArray<{ type: string }>): string | undefined {
  if (tx.status !== 0 || tx.vmError !== "out of gas" || tx.to === undefined || !MODULE_PRECOMPILE.test(tx.to) || beginEvents.length === 0) return undefined;
  const work = [...new Set(beginEvents.map((e) => e.type))].join(", ");
  return `Note: this block's begin block did module work before this transaction (${work}), changing state the call reads; an estimate made on the head's state does not see it, so a precompile call can need more gas than eth_estimateGas answered, as on evmd. Send such calls with a margin (docs/cosmos-precompiles.md, "Gas estimates").`;
}

const LABEL_WIDTH = 20;

/** `  Label:   value`, the labels aligned as Hardhat aligns them. */
function field(indent: string, label: string, value: string, width = LABEL_WIDTH): string {
  return `${indent}${`${label}:`.padEnd(width)} ${value}`;
}

/** Wei as a person reads it: "0 ETH", "1 wei", "2.5 gwei", "1.5 ETH". */
export function formatValue(wei: bigint, coin?: Coin): string {
  if (coin !== undefined) {
    // the chain's coin: whole coins by its symbol, small amounts in its base denom
    if (wei === 0n) return `0 ${coin.symbol}`;
    if (wei < 10n ** 15n) return `${wei}${coin.denom}`;
    return `${trimZeros(formatUnits(wei, 18))} ${coin.symbol}`;
  }
  if (wei === 0n) return "0 ETH";
  if (wei < 10n ** 6n) return `${wei} wei`;
  if (wei < 10n ** 15n) return `${trimZeros(formatUnits(wei, 9))} gwei`;
  return `${trimZeros(formatUnits(wei, 18))} ETH`;
}

/** The chain's native coin as the log names amounts: its symbol (EVMOS, TEST) and base denom (aevmos, atest), 18 decimals. */
export interface Coin {
  symbol: string;
  denom: string;
}

function trimZeros(s: string): string {
  return s.includes(".") ? s.replace(/\.?0+$/, "") : s;
}

/**
 * Why a transaction failed: `Error: ` and exactly what Hardhat says of it (src/hardhat/errors.ts);
 * `customError` names the project's custom errors.
 */
export function failureText(vmError: string | undefined, data: Uint8Array, customError?: CustomErrorDecoder): string {
  return `Error: ${hardhatFailureText({ error: vmError, returnValue: data }, customError)}`;
}

/** What the transaction did: "Contract deployment: Token", "Contract call: Token#transfer", or nothing when unknown. */
function whatLines(tx: TxStory, indent: string): string[] {
  if (tx.to === undefined) return [field(indent, "Contract deployment", tx.name?.contract ?? "<UnrecognizedContract>")];
  if (tx.name === undefined) return [];
  return [field(indent, "Contract call", tx.name.function === undefined ? tx.name.contract : `${tx.name.contract}#${tx.name.function}`)];
}

/**
 * A transaction's section. `withBlock`: the block line follows (a transaction request mined by
 * automine); in a "Mined block" section the block is the heading instead.
 */
export function txLines(tx: TxStory, opts: { indent: string; withBlock: boolean; paint?: Paint; customError?: CustomErrorDecoder; coin?: Coin }): string[] {
  const { indent } = opts;
  const paint = opts.paint ?? NO_PAINT;
  const out = [...whatLines(tx, indent)];
  if (tx.contractAddress !== undefined && tx.to === undefined) out.push(field(indent, "Contract address", tx.contractAddress));
  out.push(field(indent, "Transaction", paint.bold(tx.hash)));
  out.push(field(indent, "From", tx.from));
  if (tx.to !== undefined) out.push(field(indent, "To", tx.to));
  out.push(field(indent, "Value", formatValue(tx.value, opts.coin)));
  out.push(field(indent, "Gas used", `${tx.gasUsed} of ${tx.gasLimit}`));
  if (opts.withBlock) out.push(field(indent, `Block #${tx.block.number}`, tx.block.hash));
  out.push("");
  if (tx.consoleLines.length > 0) out.push(...consoleLines(tx.consoleLines, indent), "");
  if (tx.status === 0) {
    out.push(paint.red(`${indent}${failureText(tx.vmError, tx.returnData, opts.customError)}`));
    for (const frame of tx.frames ?? []) out.push(paint.red(`${indent}    ${frame}`));
    if (tx.note !== undefined) out.push(`${indent}${tx.note}`);
    out.push("");
  }
  return out;
}

/** console.log output under a heading, one line each. */
export function consoleLines(lines: string[], indent: string): string[] {
  return [`${indent}console.log:`, ...lines.map((l) => `${indent}  ${l}`)];
}

/** A block mined outside a transaction request (evm_mine, hardhat_mine, interval mining): its heading. */
export function blockHeading(number: bigint, hash: string, baseFee: bigint | undefined, indent: string): string[] {
  return [`${indent}Mined block #${number}`, `${indent}  Block: ${hash}`, ...(baseFee === undefined ? [] : [`${indent}    Base fee: ${baseFee}`])];
}

/** The heading of empty blocks, collapsed into a range as they come. */
export function emptyBlocksLine(first: bigint, last: bigint, baseFee: bigint | undefined): string {
  if (first === last) return `Mined empty block #${first}${baseFee === undefined ? "" : ` with base fee ${baseFee}`}`;
  return `Mined empty block range #${first} to #${last}`;
}

/** The epoch ticks played in a reserved range (src/chain/store/steady-runs.ts), counted: a line under the range, or none. */
export function playedTicksLine(played: ReadonlyMap<string, number>, indent: string): string | undefined {
  const count = (...types: string[]): number => types.reduce((n, t) => n + (played.get(t) ?? 0), 0);
  const ends = count(EVENT_EPOCH_END, SDK_EVENT_EPOCH_END);
  const starts = count(EVENT_EPOCH_START, SDK_EVENT_EPOCH_START);
  if (ends + starts === 0) return undefined;
  return `${indent}  ${ends} epoch end(s) and ${starts} start(s) in these blocks, no hook acting (epochs_blockEvents lists them by block)`;
}

/** One module event of a block, as `epochs_blockEvents` gives them. */
export interface BlockEvent {
  type: string;
  attributes: Array<{ key: string; value: string }>;
}

/** Names the contract behind a hook address (from its code), when known. */
type HookNamer = (address: string) => string | undefined;

/**
 * The epochs that ticked in a block, one line per tick, each followed by the hooks it called (the
 * contract, the result and gas) and the failures with their reason, then, when the node explained
 * them, Hardhat's message and the Solidity frames. Empty when nothing ticked.
 */
export function epochLines(events: BlockEvent[], indent: string, nameOf: HookNamer = () => undefined, paint: Paint = NO_PAINT, typedNames: readonly string[] = []): string[] {
  const out: string[] = [];
  const typed = events.filter((e) => e.type === SDK_EVENT_EPOCH_END || e.type === SDK_EVENT_EPOCH_START);
  // the timers' names, when the log could tell them (one a typed event, in order: src/epochs/abci.ts typedEventTimers)
  const names = typedNames.length === typed.length ? typedNames : [];
  for (const e of events) {
    const a = Object.fromEntries(e.attributes.map((x) => [x.key, x.value]));
    if (e.type === "epoch_end") out.push(`${indent}epoch ${a.identifier} #${a.epoch_number} ended`);
    else if (e.type === "epoch_start") out.push(`${indent}epoch ${a.identifier} #${a.epoch_number} started`);
    // the Cosmos SDK's typed events (cosmos-evm profile): proto3-JSON values, no identifier
    else if (e.type === SDK_EVENT_EPOCH_END || e.type === SDK_EVENT_EPOCH_START) {
      const name = names[typed.indexOf(e)];
      out.push(`${indent}epoch ${name === undefined ? "" : `${name} `}#${typedValue(a.epoch_number)} ${e.type === SDK_EVENT_EPOCH_END ? "ended" : "started"}`);
    } else if (e.type === "epoch_hook" || e.type === "epoch_hook_failed") {
      const fn = a.hook === "BeforeEpochStart" ? "beforeEpochStart" : "afterEpochEnd";
      const name = nameOf(a.address);
      const who = a.address === "typescript" ? "a TypeScript hook" : name === undefined ? a.address : `${name} (${a.address})`;
      const line = `${indent}  ${fn}: ${who}`;
      if (e.type === "epoch_hook") {
        out.push(`${line}: ok, gas used ${a.gas_used}`);
        continue;
      }
      out.push(paint.red(`${line}: failed: ${a.reason} (gas used ${a.gas_used})`));
      // explained (src/host/solidity/hook-failures.ts): Hardhat's message and Solidity frames, as under a failed transaction
      if (a.error !== undefined) out.push(paint.red(`${indent}    Error: ${a.error}`));
      if (a.stack !== undefined) out.push(...a.stack.split("\n").map((frame) => paint.red(`${indent}      ${frame}`)));
    }
  }
  return out;
}

/** The Cosmos modules' block work a block's events tell, by event type: a line each (moduleLines). */
const MODULE_EVENTS: Readonly<Record<string, (a: Record<string, string>) => string>> = {
  complete_unbonding: (a) => `x/staking: unbonding of ${a.amount} from ${a.validator} to ${a.delegator} completed`,
  inactive_proposal: (a) => `x/gov: proposal #${a.proposal_id} dropped: its deposit period ended without the minimum deposit`,
  active_proposal: (a) => {
    const id = `x/gov: proposal #${a.proposal_id}`;
    if (a.proposal_result === "proposal_passed") return `${id} passed: its messages ran`;
    if (a.proposal_result === "proposal_rejected") return `${id} rejected`;
    if (a.proposal_result === "expedited_proposal_rejected") return `${id} (expedited) did not pass: it votes on as a regular proposal`;
    return `${id} failed: ${a.proposal_log ?? a.proposal_result}`;
  },
  timeout_packet: (a) => `ibc: packet #${a.packet_sequence} on ${a.packet_src_channel} timed out: its sender refunded`,
  // x/mint (every block) or the distribution module's epoch stand-in
  mint: (a) =>
    a.epoch_identifier !== undefined
      ? `x/distribution: minted ${a.amount} at the end of epoch ${a.epoch_identifier}, allocated to the bonded validators`
      : `x/mint: minted ${a.amount} (inflation ${a.inflation}, bonded ratio ${a.bonded_ratio})`,
};
const MODULE_FAILURES: Readonly<Record<string, string>> = { mint_failed: "x/mint", staking_end_block_failed: "x/staking", gov_end_block_failed: "x/gov", transfer_end_block_failed: "ibc" };

/**
 * What the Cosmos modules did in a block, a line each: proposals tallied, passed, failed or dropped,
 * unbondings completed, packets timed out, coins minted; a module's failed block work in red.
 * `notable`: false when all it tells is minting (a chain with x/mint mints in every block).
 */
export function moduleLines(events: BlockEvent[], indent: string, paint: Paint = NO_PAINT): { lines: string[]; notable: boolean } {
  const lines: string[] = [];
  let notable = false;
  for (const e of events) {
    const a = Object.fromEntries(e.attributes.map((x) => [x.key, x.value]));
    const told = MODULE_EVENTS[e.type];
    if (told !== undefined) {
      lines.push(`${indent}${told(a)}`);
      notable ||= e.type !== "mint";
    } else if (MODULE_FAILURES[e.type] !== undefined) {
      lines.push(paint.red(`${indent}${MODULE_FAILURES[e.type]}: block work failed: ${a.reason}`));
      notable = true;
    }
  }
  return { lines, notable };
}

/** A typed event's attribute value (`"5"`, quotes included) as text. */
function typedValue(v: string | undefined): string {
  try {
    return String(JSON.parse(v ?? ""));
  } catch {
    return v ?? "";
  }
}

/** True when a block's events hold an epoch tick (a start or an end), under either profile. */
export function ticked(events: BlockEvent[]): boolean {
  return events.some((e) => e.type === EVENT_EPOCH_START || e.type === EVENT_EPOCH_END || e.type === SDK_EVENT_EPOCH_START || e.type === SDK_EVENT_EPOCH_END);
}

/** A request's parameters in one short line (the --verbose request log). */
export function paramsSummary(params: unknown, max = 160): string {
  if (params === undefined || (Array.isArray(params) && params.length === 0)) return "";
  let s: string;
  try {
    s = JSON.stringify(params, (_k, v: unknown) => (typeof v === "string" && v.length > 74 && /^0x[0-9a-fA-F]*$/.test(v) ? `${v.slice(0, 66)}…(${Math.floor((v.length - 2) / 2)} bytes)` : v));
  } catch {
    s = String(params);
  }
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
}
