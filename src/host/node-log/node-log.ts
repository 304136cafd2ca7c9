/**
 * The story `npx hardhat node` prints: each request's method (repeats collapsed into one line with a
 * count, as Hardhat's node does), each transaction with what it did when its block is mined, blocks
 * mined without a transaction request, the epochs that ticked with their hooks, console.log lines
 * under the transaction (or call, or block) that ran them, and failures with their reason.
 *
 * The data comes from the chain's events (`block`, `reserved`, `consoleLog`, `miningError`) and the
 * dispatcher's request hooks; the levels follow the node's log verbosity (src/utils/log-level.ts:
 * `--quiet`, `--verbose`, `debug_verbosity`): errors at 1, the story at 3, request params and call
 * results at 4. Output goes through one queue, so lines that need a state read (the code of a called
 * contract, to name it) still come out in the order things happened.
 */
import type { TypedTransaction } from "@ethereumjs/tx";
import type { RunTxResult } from "@ethereumjs/vm";
import { bytesToHex, createAddressFromString } from "@ethereumjs/util";
import type { ContractNames } from "../../solidity/contract-names";
import { ContractRegistry, formatCustomError } from "../../solidity/registry";
import type { ConsoleOrigin, MinedBlock, Node } from "../../chain/setup";
import type { RpcError } from "../../rpc/errors";
import { logEnabled } from "../../utils/log-level";
import type { CustomErrorDecoder } from "../solidity/failure-text";
import { type FrameOptions, solidityFailure } from "../solidity/solidity-error";
import { cosmosModule, epochsModule } from "../lazy";
import {
  type BlockEvent,
  type Coin,
  type Paint,
  type TxStory,
  ANSI,
  NO_PAINT,
  blockHeading,
  consoleLines,
  epochLines,
  estimateNote,
  moduleLines,
  paramsSummary,
  playedTicksLine,
  ticked,
  txLines,
} from "./format";
import { errorText } from "../../utils/error-text";
import { HeldLine } from "./held-line";

const SEND_METHODS = new Set(["eth_sendTransaction", "eth_sendRawTransaction", "personal_sendTransaction"]);
const RESULT_METHODS = new Set(["eth_call", "eth_estimateGas"]); // whose answer --verbose prints
/** Hardhat's own bookkeeping calls: not part of the story. */
const SILENT_METHODS = new Set(["hardhat_getStackTraceFailuresCount", "hardhat_setLoggingEnabled", "hardhat_addCompilationResult"]);

interface NodeLogOptions {
  /** Writes text to the terminal (the node: process.stdout.write). */
  write: (text: string) => void;
  /** A terminal: repeats are rewritten in place and colours are used. */
  tty: boolean;
  /** `--json-rpc.log`: every request and its answer in full, uncollapsed, whatever the verbosity. */
  rpcLog?: boolean;
  /** How long a collapsible line may wait for a repeat when it cannot be rewritten in place (not a TTY). */
  holdMs?: number;
  /** How Solidity frames under failures name the project's sources (Hardhat 3's `project/` prefix left out). */
  frames?: FrameOptions;
}

/** What the log reads from the project's compilations (a ContractRegistry): names, and the custom errors it decodes. */
type LogContracts = ContractNames & Partial<Pick<ContractRegistry, "customError">>;

export class NodeLog {
  private readonly _paint: Paint;
  private _queue: Promise<void> = Promise.resolve();
  private readonly _held: HeldLine;
  /** Requests running now, oldest first: a block mined meanwhile is told under them. */
  private readonly _inFlight: string[] = [];
  private readonly _txConsole = new Map<string, string[]>();
  private readonly _blockConsole: string[] = [];
  /** True right after a call's console.log heading, so more lines join it. */
  private _callConsoleOpen = false;
  private _names: ContractNames | undefined;
  private _customError: CustomErrorDecoder | undefined;
  private _coin: Coin | undefined;
  /** Locates failures in the project's sources (the frames under a failed transaction), when the names come from one. */
  private _registry: ContractRegistry | undefined;

  constructor(private readonly _opts: NodeLogOptions) {
    this._paint = _opts.tty ? ANSI : NO_PAINT;
    this._held = new HeldLine({ write: (text) => _opts.write(text), tty: _opts.tty, holdMs: _opts.holdMs, paint: this._paint, enqueue: (task) => this._enqueue(task) });
  }

  /**
   * Follows a node's blocks, console.log lines and interval-mining failures; `names` names contracts,
   * functions and custom errors; `coin`: the chain's coin, which amounts are told in (else ETH, as Hardhat's node).
   */
  attach(node: Node, names?: LogContracts, coin?: Coin): void {
    this._names = names;
    this._coin = coin;
    this._registry = names instanceof ContractRegistry ? names : undefined;
    const decode = names?.customError?.bind(names);
    this._customError =
      decode === undefined
        ? undefined
        : (data) => {
            const e = decode(data);
            return e === undefined ? undefined : formatCustomError(e.fragment, e.args);
          };
    node.on("block", (mined) => this.onBlock(node, mined));
    node.on("reserved", (first, last, baseFee, played) => this.onReserved(first, last, baseFee, played));
    node.on("consoleLog", (line, origin) => this.onConsoleLog(line, origin));
    node.on("miningError", (err) => this._enqueue(() => this._error([this._paint.red(`Mining failed: ${err.message}`), ""])));
    // a bug of the node: the call failed with a revert saying so; the stack is for the report
    node.on("precompileFault", (address, err) =>
      this._enqueue(() => this._error([this._paint.red(`Internal error in the precompile at ${address || "(unknown)"}, the call reverted: ${err.stack ?? err.message}`), ""])),
    );
  }

  onRequest(method: string, params: unknown): void {
    this._inFlight.push(method);
    if (this._opts.rpcLog === true) {
      this._enqueue(() => this._print([`${this._paint.green(method)} → ${fullJson(params ?? [])}`]));
      return;
    }
    if (SILENT_METHODS.has(method) || !logEnabled("rpc", 3)) return;
    const verbose = logEnabled("rpc", 4);
    this._enqueue(() => {
      if (verbose) {
        const summary = paramsSummary(params);
        this._print([summary === "" ? this._paint.green(method) : `${this._paint.green(method)}  ${summary}`]);
      } else {
        if (this._held.method(method)) this._callConsoleOpen = false;
      }
    });
  }

  onResponse(method: string, outcome: { result: unknown } | { error: RpcError }): void {
    const i = this._inFlight.indexOf(method);
    if (i >= 0) this._inFlight.splice(i, 1);
    if (this._opts.rpcLog === true) {
      const answer =
        "error" in outcome
          ? { error: { code: outcome.error.code, message: outcome.error.message, ...(outcome.error.data !== undefined ? { data: outcome.error.data } : {}) } }
          : { result: outcome.result ?? null };
      this._enqueue(() => this._print([`${this._paint.green(method)} ← ${fullJson(answer)}`]));
      return;
    }
    if (SILENT_METHODS.has(method)) return;
    if ("error" in outcome) {
      // a refused transaction is an error of the node's story; other failing requests are details
      const send = SEND_METHODS.has(method);
      if (!(send ? logEnabled("rpc", 1) : logEnabled("rpc", 4))) return;
      const header = logEnabled("rpc", 3) ? [] : [method];
      this._enqueue(() => this._print([...header, this._paint.red(`  Error: ${outcome.error.message}`), ""]));
    } else if (RESULT_METHODS.has(method) && logEnabled("rpc", 4)) {
      this._enqueue(() => this._print([`  Result: ${paramsSummary(outcome.result)}`]));
    }
  }

  onConsoleLog(line: string, origin: ConsoleOrigin): void {
    if (origin.kind === "transaction") {
      const lines = this._txConsole.get(origin.hash) ?? [];
      lines.push(line);
      this._txConsole.set(origin.hash, lines);
    } else if (origin.kind === "block") {
      this._blockConsole.push(line);
    } else if (logEnabled("chain", 3)) {
      this._enqueue(() => {
        const heading = this._callConsoleOpen ? [] : ["  console.log:"];
        this._print([...heading, `    ${line}`]);
        this._callConsoleOpen = true;
      });
    }
  }

  onBlock(node: Node, mined: MinedBlock): void {
    // taken now: the next block's lines start arriving as soon as this handler returns
    const txConsole = new Map(this._txConsole);
    const blockConsole = this._blockConsole.splice(0);
    this._txConsole.clear();
    const send = this._inFlight.find((m) => SEND_METHODS.has(m));
    const under = send ?? this._inFlight[this._inFlight.length - 1];
    this._enqueue(() => this._tellBlock(node, mined, { txConsole, blockConsole, send, under }));
  }

  /** Empty blocks hardhat_mine reserved: told as the empty blocks it would have made, collapsed into one range line; epoch ticks played inside counted under it. */
  onReserved(first: bigint, last: bigint, baseFee: bigint | undefined, played: ReadonlyMap<string, number> = new Map()): void {
    const indent = this._inFlight.length > 0 && logEnabled("rpc", 3) ? "  " : "";
    this._enqueue(() => {
      if (!logEnabled("chain", 3)) return;
      if (this._held.empty(indent, first, baseFee, last)) this._callConsoleOpen = false;
      const ticks = logEnabled("epochs", 3) ? playedTicksLine(played, indent) : undefined;
      if (ticks !== undefined) this._print([ticks]); // the range then stands alone
    });
  }

  /** Resolves once everything logged so far is written (held lines included). */
  async flush(): Promise<void> {
    await this._queue;
    this._held.release();
  }

  // ------------------------------------------------------------------------------ blocks
  private async _tellBlock(node: Node, mined: MinedBlock, ctx: { txConsole: Map<string, string[]>; blockConsole: string[]; send?: string; under?: string }): Promise<void> {
    const { block } = mined;
    const number = block.header.number;
    const hash = bytesToHex(block.hash());
    const baseFee = block.header.baseFeePerGas;
    const events: BlockEvent[] = [...mined.events.begin, ...mined.events.end];
    const txs = await Promise.all(block.transactions.map((tx, i) => this._story(node, mined, i, ctx.txConsole.get(bytesToHex(tx.hash())) ?? [])));
    const hookFailed = events.some((e) => e.type === "epoch_hook_failed");
    const story = logEnabled("chain", 3);
    const epochsShown = ticked(events) && (logEnabled("epochs", 3) || (hookFailed && logEnabled("epochs", 1)));
    const failedTxs = txs.filter((t) => t.status === 0);
    // the Cosmos modules' block work: told with the block (minting alone leaves an empty block collapsed)
    const modules = moduleLines(events, "", this._paint);
    const moduleFailed = modules.lines.length > 0 && events.some((e) => e.type.endsWith("_failed") && e.type !== "epoch_hook_failed");
    const modulesShown = modules.lines.length > 0 && (story || moduleFailed);
    const moduleText = (indent: string): string[] => (modulesShown ? modules.lines.map((l) => `${indent}${l}`) : []);
    if (!story && failedTxs.length === 0 && !epochsShown && !moduleFailed) return;

    const nameOf = await this._hookNames(node, number, events);
    const typedNames = epochsShown ? await this._typedEventNames(node, number, events) : [];
    // a transaction request mined by automine: Hardhat's flat section per transaction
    if (ctx.send !== undefined && txs.length > 0) {
      const shown = story ? txs : failedTxs;
      const header = logEnabled("rpc", 3) ? [] : [ctx.send];
      const lines = shown.flatMap((t) => txLines(t, { indent: "  ", withBlock: true, paint: this._paint, customError: this._customError, coin: this._coin }));
      if (lines.length > 0) this._print([...header, ...lines]);
      if (epochsShown) this._print([...epochLines(events, "  ", nameOf, this._paint, typedNames), ...this._blockConsoleLines(ctx.blockConsole, "  "), ""]);
      if (modulesShown) this._print([...moduleText("  "), ""]);
      return;
    }
    const indent = ctx.under !== undefined && logEnabled("rpc", 3) ? "  " : "";
    if (txs.length === 0 && !epochsShown && !(modulesShown && (modules.notable || moduleFailed))) {
      if (story && this._held.empty(indent, number, baseFee, number)) this._callConsoleOpen = false;
      return;
    }
    const inner = `${indent}  `;
    const shown = story ? txs : failedTxs;
    this._print([
      ...blockHeading(number, hash, baseFee, indent),
      ...(epochsShown ? [...epochLines(events, inner, nameOf, this._paint, typedNames), ...this._blockConsoleLines(ctx.blockConsole, inner)] : []),
      ...moduleText(inner),
      ...shown.flatMap((t) => txLines(t, { indent: inner, withBlock: false, paint: this._paint, customError: this._customError, coin: this._coin })),
      ...(shown.length === 0 ? [""] : []),
    ]);
  }

  private _blockConsoleLines(lines: string[], indent: string): string[] {
    return lines.length === 0 || !logEnabled("chain", 3) ? [] : consoleLines(lines, indent);
  }

  /** One transaction of a mined block, with the names of what it deployed or called. */
  private async _story(node: Node, mined: MinedBlock, i: number, consoleOut: string[]): Promise<TxStory> {
    const tx = mined.block.transactions[i];
    const receipt = mined.receipts[i];
    const result = mined.results?.[i];
    const to = tx.to?.toString();
    const number = mined.block.header.number;
    return {
      hash: bytesToHex(tx.hash()),
      from: bytesToHex(receipt.from),
      to,
      contractAddress: receipt.contractAddress === undefined ? undefined : bytesToHex(receipt.contractAddress),
      value: tx.value,
      gasUsed: receipt.gasUsed,
      gasLimit: tx.gasLimit,
      status: receipt.status,
      vmError: result?.execResult.exceptionError?.error,
      returnData: result?.execResult.returnValue ?? new Uint8Array(),
      name: to === undefined ? this._names?.describeDeploy(tx.data) : await this._describeCall(node, number, to, tx.data),
      consoleLines: consoleOut,
      block: { number, hash: bytesToHex(mined.block.hash()) },
      frames: receipt.status === 0 ? await this._frames(node, number, i, result === undefined ? undefined : { result, tx }) : undefined,
      note: estimateNote({ to, status: receipt.status, vmError: result?.execResult.exceptionError?.error }, mined.events.begin),
    };
  }

  /**
   * The Solidity frames of failed transaction `i` of block `height`, as Hardhat's node prints them under the
   * error: only failures pay (told from what it returned, or the block replayed up to it: txStackTrace);
   * none when out of gas (Hardhat gives none either), when no compilation knows the code, or when the
   * block is gone already (a rewind).
   */
  private async _frames(node: Node, height: bigint, i: number, ran: { result: RunTxResult; tx: TypedTransaction } | undefined): Promise<string[] | undefined> {
    const registry = this._registry;
    const ex = ran?.result.execResult;
    const error = ex?.exceptionError?.error;
    if (registry === undefined || registry.size === 0 || ran === undefined || ex === undefined || error === "out of gas") return undefined;
    try {
      return solidityFailure({ error, returnValue: ex.returnValue }, await node.traces.txStackTrace(registry, height, i, ran), undefined, this._opts.frames).frames;
    } catch {
      return undefined;
    }
  }

  private async _describeCall(node: Node, height: bigint, to: string, data: Uint8Array): Promise<{ contract: string; function?: string } | undefined> {
    // a module's precompile, by cosmos/evm's interface name (StakingI.delegate)
    const precompile = cosmosModule().precompileCall(to, data) ?? epochsCall(to, data);
    if (precompile !== undefined) return precompile;
    const names = this._names;
    if (names === undefined) return undefined;
    try {
      const code = await node.getCode(createAddressFromString(to), height);
      return names.describeCall(code, data);
    } catch {
      return undefined; // the block is gone already (a rewind): the log goes on without the name
    }
  }

  /** The timers behind the SDK's typed epoch events of block `height` (they carry no identifier): from the epochs store after it. */
  private async _typedEventNames(node: Node, height: bigint, events: BlockEvent[]): Promise<string[]> {
    if (!events.some((e) => e.type.startsWith("cosmos.epochs."))) return [];
    try {
      const { EPOCHS_MODULE, EpochsKeeper, typedEventTimers } = epochsModule();
      return typedEventTimers(new EpochsKeeper(await node.moduleStore(EPOCHS_MODULE, height)).readEpochInfos(), height);
    } catch {
      return []; // the block is gone (a rewind): the lines go without names
    }
  }

  /** The contracts behind the hooks a block called, by address. */
  private async _hookNames(node: Node, height: bigint, events: BlockEvent[]): Promise<(address: string) => string | undefined> {
    const out = new Map<string, string>();
    for (const e of events) {
      if (e.type !== "epoch_hook" && e.type !== "epoch_hook_failed") continue;
      const address = e.attributes.find((a) => a.key === "address")?.value;
      if (address === undefined || !address.startsWith("0x") || out.has(address)) continue;
      const d = await this._describeCall(node, height, address, new Uint8Array());
      if (d !== undefined) out.set(address, d.contract);
    }
    return (address) => out.get(address);
  }

  // ------------------------------------------------------------------------------ output

  private _enqueue(task: () => void | Promise<void>): void {
    this._queue = this._queue.then(task).catch((err: unknown) => {
      // the log must never stop the node; say what went wrong and go on
      this._opts.write(`node log: ${errorText(err)}\n`);
    });
  }

  private _error(lines: string[]): void {
    if (logEnabled("chain", 1)) this._print(lines);
  }

  /** Writes lines after whatever line is held. */
  private _print(lines: string[]): void {
    this._held.release();
    this._callConsoleOpen = false;
    this._opts.write(lines.map((l) => `${l}\n`).join(""));
  }
}

/** JSON as the wire carries it (bigints as decimal strings, in case a handler returns one). */
function fullJson(value: unknown): string {
  try {
    return JSON.stringify(value, (_k, v: unknown) => (typeof v === "bigint" ? v.toString() : v));
  } catch {
    return String(value);
  }
}

/** A call to the epochs precompile (0x…0900), by its interface's name (IEpochs.registerHooks). */
function epochsCall(to: string, data: Uint8Array): { contract: string; function?: string } | undefined {
  const { EPOCHS_PRECOMPILE, EPOCHS_ABI } = epochsModule();
  if (to.toLowerCase() !== EPOCHS_PRECOMPILE) return undefined;
  const fn = data.length >= 4 ? EPOCHS_ABI.getFunction(`0x${Buffer.from(data.subarray(0, 4)).toString("hex")}`) : null;
  return { contract: "IEpochs", ...(fn !== null ? { function: fn.name } : {}) };
}
