/**
 * Execution contexts. Only block production touches the live VM (inside the node's lock); every
 * other execution — eth_call, eth_estimateGas, tracing, historical precompile reads — runs in a
 * context: a VM of its own over the state after some block (module stores included: they are EVM
 * state). What a context does is thrown away with it.
 *
 * A context has an optional deadline. It ends the execution from inside, never by abandoning it:
 * every loop in EVM code passes a JUMPDEST and every call starts a message, and both check the
 * clock (see `chainOpcodes` and `trackMessages`).
 *
 * The chain tells its precompiles about the execution they run in through an `ExecEnv`, found from
 * the EVM (or its state manager) that runs them: the message stack (msg.sender, static or not), the
 * module stores of that height, the deadline.
 */
import type { Block } from "@ethereumjs/block";
import type { Common } from "@ethereumjs/common";
import { type EVMOpts, getOpcodesForHF, paramsEVM } from "@ethereumjs/evm";
import type { Address } from "@ethereumjs/util";
import { equalsBytes } from "@ethereumjs/util";
import type { RunTxResult, VM } from "@ethereumjs/vm";
import type { ModuleStore } from "../base/module-state";
import { copyChainVM } from "./evm";
import { ChainStateManager } from "./state-manager";
import { CONSOLE_ADDRESS } from "../../solidity/console-log";
import { COVERAGE_ADDRESS } from "./coverage";
import type { ExecutionRecorder, RecordedMessage, RecordedResult } from "./executions";
import { turnIfDue } from "../../utils/turn";
import { ChainError } from "../base/errors";

const CONSOLE_BYTES = new Uint8Array(Buffer.from(CONSOLE_ADDRESS.slice(2), "hex"));
const COVERAGE_BYTES = new Uint8Array(Buffer.from(COVERAGE_ADDRESS.slice(2), "hex"));

/** An execution ran past its context's deadline (geth: "execution aborted (timeout = 5s)"). */
export class ExecutionTimeout extends ChainError {
  /** Ends the execution, not just the call it met (src/chain/base/errors.ts, `endsExecution`). */
  readonly endsExecution = true;
  constructor(readonly timeoutMs: number) {
    super(`execution aborted (timeout = ${formatSeconds(timeoutMs)})`);
  }
}

function formatSeconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000}s` : `${ms}ms`;
}

/** One EVM message as precompiles need it. */
export interface MessageFrame {
  caller: Address;
  isStatic: boolean;
  /** Wei the message carries (the EVM has moved it to the callee before the callee runs). */
  value: bigint;
  /**
   * The code runs as another account (DELEGATECALL or CALLCODE): `caller` and `value` are then that
   * account's, not a call's to the code, so a precompile must not act on them (src/chain/base/precompile.ts).
   */
  delegated: boolean;
}

/** What an execution's precompiles may ask of the chain. */
export interface ExecEnv {
  /** Messages being executed, outermost first. */
  readonly messages: MessageFrame[];
  /** A module's store as this execution's state holds it now (read-only). */
  moduleStore(name: string): Promise<ModuleStore>;
  /** Date.now() after which execution stops; undefined = none. */
  deadline?: number;
  timeoutMs?: number;
  /** Receives the data of each call to console.sol's address (console.log); undefined = not watched. */
  console?: (data: Uint8Array) => void;
  /** Receives the tag of each call to the coverage address (src/chain/engine/coverage.ts); undefined = not watched. */
  coverage?: (tag: Uint8Array) => void;
  /** Records the messages of this execution for gas statistics (src/chain/engine/executions.ts); undefined = not recorded. */
  executions?: ExecutionRecorder;
  /** Receives the steps of the tapped opcodes (`chainOpcodes`' `tapped`) of a user's execution; undefined = not told. */
  stepTap?: (step: MinimalStep) => void;
  /** The block the current execution runs in (its number and time), set by whoever runs it (`enterBlock`). */
  block?: { number: bigint; timestamp: bigint };
  /** Set for an execution whose reads of the gas left must be known (an estimate's first run). */
  gasWatch?: GasWatch;
  /** Messages begun on this VM, all told (`trackMessages`): a transaction that began one made no calls. */
  messagesBegun?: number;
}

/**
 * How an execution depended on the gas it was given, beyond using it: what decides whether it would
 * run the same with exactly the gas it used (src/chain/calls/execution.ts, `estimateGas`).
 */
export interface GasWatch {
  /** The gas left was read: a GAS opcode, or a nested message (CALL and CREATE pass on 63/64 of it). */
  gasObserved: boolean;
  /** The least gas left at any SSTORE (EIP-2200 fails an SSTORE with 2300 or less left). */
  minSstoreGasLeft?: bigint;
}

const envs = new WeakMap<object, ExecEnv>();

type CustomOpcode = NonNullable<EVMOpts["customOpcodes"]>[number];

/** Binds `env` to a VM: its EVM and its state manager both find it. */
export function bindEnv(vm: VM, env: ExecEnv): void {
  envs.set(vm.evm, env);
  envs.set(vm.stateManager, env);
}

/** The env of the EVM (or state manager) `key`, if the chain made it. */
export function envOf(key: object): ExecEnv | undefined {
  return envs.get(key);
}

/**
 * Tells the VM's precompiles which block the next execution runs in. EthereumJS hands a precompile
 * no block (its EVM keeps the one of runCall protected), so each path that runs transactions or
 * calls says it here (block production, replays, calls, simulations, traces).
 */
export function enterBlock(vm: VM, block: Block): void {
  const env = envs.get(vm.evm);
  if (env !== undefined) env.block = { number: block.header.number, timestamp: block.header.timestamp };
}

function checkDeadline(env: ExecEnv | undefined): void {
  if (env?.deadline !== undefined && Date.now() > env.deadline) throw new ExecutionTimeout(env.timeoutMs ?? 0);
}

type OpcodeEntry = ReturnType<typeof getOpcodesForHF>["opcodeMap"][number];
type RunState = Parameters<OpcodeEntry["opHandler"]>[0];

let opcodes: CustomOpcode[] | undefined;
/** The lists with tapped opcodes, by their names joined. */
const tappedLists = new Map<string, CustomOpcode[]>();

/**
 * One step of a tapped opcode, in the shape Hardhat's EDR network gives `step` listeners
 * (MinimalInterpreterStep): where it is, the opcode's name, and the top of the stack before it runs.
 */
export interface MinimalStep {
  pc: number;
  depth: number;
  opcode: { name: string };
  stack: bigint[];
}

/** EthereumJS's own opcode map for `common`: the EVM's parameters (opcode fees) on a copy of it, as the EVM's constructor does. */
function ownOpcodeMap(common: Common): ReturnType<typeof getOpcodesForHF>["opcodeMap"] {
  const evmCommon = common.copy();
  evmCommon.updateParams(paramsEVM);
  return getOpcodesForHF(evmCommon).opcodeMap;
}

/**
 * The chain's custom opcodes (EthereumJS's public `customOpcodes` EVM option): three opcodes as the
 * EVM defines them — EthereumJS's own handlers, which are the same functions for every hardfork and
 * decide by the hardfork inside, and base fees (1, 2, 0) that no hardfork changes, so one list serves
 * every chain in the process — plus what the chain watches:
 * - JUMPDEST (1 gas, no effect) reads the clock at every pass: when the code has run TURN_MS (src/utils/turn.ts) since
 *   the event loop's last turn, it looks at the deadline and gives the loop a turn. Every pass, not
 *   every n-th: what one pass runs has no bound but the gas (a straight line of 10,000 cheap opcodes
 *   between two passes takes ~4 ms here), and the clock costs ~70 ns, under 5% of the tightest loop
 *   there is (JUMPDEST PUSH1 JUMP, ~1.5 µs a pass). Jump analysis is by byte value, so valid jump
 *   destinations are unchanged;
 * - GAS and SSTORE tell an execution's `gasWatch`, when it has one, that the gas left was read or how
 *   low it was at an SSTORE.
 * Every VM the chain makes (and every copy of one) runs with this one list.
 *
 * `tapped` (opcode names, e.g. PUSH1): those opcodes also hand their step to the execution's
 * `stepTap` before they run, for a step relay that needs only them (src/chain/engine/step-relay.ts):
 * far cheaper than EthereumJS's `step` events, which build a full step (stack and memory copied) for
 * every opcode. Such a list is made once per set of names.
 */
export function chainOpcodes(common: Common, tapped: readonly string[] = []): CustomOpcode[] {
  if (tapped.length > 0) return tappedOpcodes(common, tapped);
  if (opcodes !== undefined) return opcodes;
  const own = ownOpcodeMap(common);
  const gas = own[0x5a];
  const sstore = own[0x55];
  const watchOf = (runState: RunState): GasWatch | undefined => envs.get(runState.stateManager)?.gasWatch;
  const list: CustomOpcode[] = [
    {
      opcode: 0x5b,
      opcodeName: "JUMPDEST",
      baseFee: own[0x5b].opcodeInfo.fee,
      logicFunction: (runState: RunState) => {
        const turn = turnIfDue();
        if (turn !== undefined) checkDeadline(envs.get(runState.stateManager));
        return turn;
      },
    },
    {
      opcode: 0x5a,
      opcodeName: "GAS",
      baseFee: gas.opcodeInfo.fee,
      logicFunction: (runState: RunState, c: Common) => {
        const watch = watchOf(runState);
        if (watch !== undefined) watch.gasObserved = true;
        return gas.opHandler(runState, c);
      },
    },
    {
      opcode: 0x55,
      opcodeName: "SSTORE",
      baseFee: sstore.opcodeInfo.fee,
      gasFunction: async (runState: RunState, fee: bigint, c: Common): Promise<bigint> => {
        const watch = watchOf(runState);
        if (watch !== undefined) {
          const left = runState.interpreter.getGasLeft();
          if (watch.minSstoreGasLeft === undefined || left < watch.minSstoreGasLeft) watch.minSstoreGasLeft = left;
        }
        return sstore.gasHandler(runState, fee, c);
      },
      logicFunction: sstore.opHandler,
    },
  ];
  opcodes = list;
  return list;
}

function tappedOpcodes(common: Common, tapped: readonly string[]): CustomOpcode[] {
  const key = [...tapped].sort().join(",");
  const made = tappedLists.get(key);
  if (made !== undefined) return made;
  const base = chainOpcodes(common);
  const own = ownOpcodeMap(common);
  const names = new Set(tapped);
  const list = [...base];
  for (const [code, entry] of Object.entries(own)) {
    const name = entry.opcodeInfo.fullName;
    if (!names.has(name) || base.some((o) => o.opcode === Number(code))) continue;
    const handler = entry.opHandler;
    list.push({
      opcode: Number(code),
      opcodeName: entry.opcodeInfo.name,
      baseFee: entry.opcodeInfo.fee,
      logicFunction: (runState: RunState, c: Common) => {
        const tap = envs.get(runState.stateManager)?.stepTap;
        if (tap !== undefined) {
          const stack = runState.stack.length > 0 ? runState.stack.peek(1) : [];
          // the counter has moved past the opcode when its handler runs
          tap({ pc: runState.programCounter - 1, depth: runState.env.depth, opcode: { name }, stack });
        }
        return handler(runState, c);
      },
    });
  }
  tappedLists.set(key, list);
  return list;
}

/** Whether `list` is one of the chain's custom opcode lists: the EVM that has it is one the chain made. */
export function isChainOpcodes(list: unknown): boolean {
  if (list === undefined) return false;
  if (list === opcodes) return true;
  for (const l of tappedLists.values()) if (l === list) return true;
  return false;
}

/**
 * Executions (a produced block's transactions, calls and estimates in contexts) whose one message
 * called nothing, as `trackMessages` counted: a failure of one of them is told from its own result,
 * without a second run (src/chain/tracing/failure.ts).
 */
export const madeNoCalls = new WeakSet<RunTxResult>();

/**
 * Keeps `env.messages` in step with the EVM's messages and checks the deadline at each new one.
 * One-argument listeners: EthereumJS calls them synchronously (no promise per message), and an
 * error they throw ends the execution.
 */
export function trackMessages(vm: VM): void {
  const events = vm.evm.events;
  if (events === undefined) return;
  events.on("beforeMessage", (msg: { caller: Address; isStatic: boolean; value: bigint; to?: Address; codeAddress?: Address; delegatecall?: boolean; data: Uint8Array } & RecordedMessage) => {
    const env = envs.get(vm.evm);
    if (env === undefined) return;
    env.messagesBegun = (env.messagesBegun ?? 0) + 1;
    // CALLCODE runs the code at `codeAddress` as `to`, the caller itself; DELEGATECALL also keeps its caller's caller
    const delegated = msg.delegatecall === true || (msg.to !== undefined && msg.codeAddress !== undefined && !msg.codeAddress.equals(msg.to));
    env.messages.push({ caller: msg.caller, isStatic: msg.isStatic, value: msg.value, delegated });
    env.executions?.enter(msg);
    if (env.gasWatch !== undefined && env.messages.length > 1) env.gasWatch.gasObserved = true;
    checkDeadline(env);
    if (msg.to === undefined) return;
    if (env.console !== undefined && equalsBytes(msg.to.bytes, CONSOLE_BYTES)) env.console(msg.data);
    else if (env.coverage !== undefined && equalsBytes(msg.to.bytes, COVERAGE_BYTES)) env.coverage(msg.data);
  });
  events.on("afterMessage", (result: RecordedResult) => {
    const env = envs.get(vm.evm);
    env?.messages.pop();
    env?.executions?.exit(result);
  });
  // A call tree without loops (each frame calls the next) passes no JUMPDEST: messages give turns too.
  // Two arguments: EthereumJS waits for `done` before it runs the message.
  events.on("beforeMessage", (_msg: unknown, done?: () => void) => {
    const turn = turnIfDue();
    if (turn === undefined) done?.();
    else void turn.then(done);
  });
}

/** The accounts and slots an execution read (EthereumJS's access list of it). */
export type Touched = NonNullable<RunTxResult["accessList"]>;

export interface ExecutionContext {
  /** The block whose post-state this context reads. */
  readonly height: bigint;
  readonly block: Block;
  /** A VM of its own over that state; nothing it does reaches the chain. */
  readonly vm: VM;
  readonly env: ExecEnv;
  /**
   * What the last execution in this context's VM read, to read again (outside the next execution's
   * reverted checkpoint) before the next one: `runInContext` in src/chain/calls/execution.ts. Kept
   * with the pooled VM, also when it moves to another state (a call at a new head mostly reads what
   * the last call read).
   */
  touched?: Touched;
  /**
   * The request's gas: every execution in this context draws what it used from it, and none may be
   * given more than is left (undefined = no pool; each execution is still capped by the node's gas
   * cap). eth_simulateV1 runs all its calls against one pool of the gas cap, as geth does.
   */
  gasPool?: { left: bigint };
  /** Ends the context; its VM may serve a later one. Call once, after the last use of `vm`. */
  release(): void;
}

export interface ContextOptions {
  /** Milliseconds the context's executions may run in total; 0 or undefined = no deadline. */
  timeoutMs?: number;
  /** A user's execution (eth_call, eth_estimateGas): report its console.log calls (the node's `consoleLog` event) and its coverage hits (`coverageHit`). */
  consoleLog?: boolean;
}

/**
 * VMs for contexts, made from the live VM once and reused: a VM that comes back clean keeps its
 * caches, so repeated calls at the same state read warm ones. Moved to another state of the live
 * chain, a VM keeps them too (the state manager corrects what the blocks between wrote:
 * src/chain/engine/flush-journal.ts), and what its last execution read is read again there, so the
 * first call at a new head runs warm as well.
 */
export class VmPool {
  private readonly _free: Array<{ vm: VM; root: Uint8Array; touched?: Touched }> = [];

  constructor(
    private readonly _base: VM,
    private readonly _max = 8,
    /** Cached accounts, slots and codes a pooled VM may keep; beyond, its caches are emptied when it moves. */
    private readonly _maxCacheEntries = 100_000,
  ) {}

  /** A VM at state `root`, with what its last execution read (to read again before the next). */
  async acquire(root: Uint8Array): Promise<{ vm: VM; touched?: Touched }> {
    const same = this._free.findIndex((f) => equalsBytes(f.root, root));
    const entry = same >= 0 ? this._free.splice(same, 1)[0] : this._free.pop();
    if (entry !== undefined) {
      if (equalsBytes(entry.root, root)) return { vm: entry.vm, touched: entry.touched };
      const sm = entry.vm.stateManager;
      if (sm instanceof ChainStateManager && sm.cacheEntries() > this._maxCacheEntries) sm.clearCaches();
      await sm.setStateRoot(root);
      return { vm: entry.vm, touched: entry.touched };
    }
    const vm = await copyChainVM(this._base);
    trackMessages(vm);
    await vm.stateManager.setStateRoot(root);
    return { vm };
  }

  /** Takes a VM back; one whose execution was aborted mid-way (`clean` false) is dropped. */
  release(vm: VM, root: Uint8Array, clean: boolean, touched?: Touched): void {
    if (!clean || this._free.length >= this._max) return;
    this._free.push({ vm, root, touched });
  }
}
