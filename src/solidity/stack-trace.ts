/**
 * Why an execution failed, as a Solidity stack trace in the shape of Hardhat's `SolidityStackTrace`
 * (the entry types and their numbers are EDR's `StackTraceEntryType`): the message tree of one
 * execution is recorded from the EVM's events, then read from the top frame down the failing path.
 */
import { type Address, equalsBytes } from "@ethereumjs/util";
import type { TypedTransaction } from "@ethereumjs/tx";
import type { RunTxResult, VM } from "@ethereumjs/vm";
import { type ContractInfo, type ContractRegistry, type SourceReference, formatCustomError } from "./registry";
import { ERROR_SELECTOR, PANIC_SELECTOR, selectorOf } from "./revert-data";

/** EDR's StackTraceEntryType (test/solidity/registry.test.ts checks the numbers against EDR). */
export const StackTraceEntryType = {
  CALLSTACK_ENTRY: 0,
  UNRECOGNIZED_CREATE_CALLSTACK_ENTRY: 1,
  UNRECOGNIZED_CONTRACT_CALLSTACK_ENTRY: 2,
  PRECOMPILE_ERROR: 3,
  REVERT_ERROR: 4,
  PANIC_ERROR: 5,
  CUSTOM_ERROR: 6,
  FUNCTION_NOT_PAYABLE_ERROR: 7,
  INVALID_PARAMS_ERROR: 8,
  FALLBACK_NOT_PAYABLE_ERROR: 9,
  FALLBACK_NOT_PAYABLE_AND_NO_RECEIVE_ERROR: 10,
  UNRECOGNIZED_FUNCTION_WITHOUT_FALLBACK_ERROR: 11,
  MISSING_FALLBACK_OR_RECEIVE_ERROR: 12,
  RETURNDATA_SIZE_ERROR: 13,
  NONCONTRACT_ACCOUNT_CALLED_ERROR: 14,
  CALL_FAILED_ERROR: 15,
  DIRECT_LIBRARY_CALL_ERROR: 16,
  UNRECOGNIZED_CREATE_ERROR: 17,
  UNRECOGNIZED_CONTRACT_ERROR: 18,
  OTHER_EXECUTION_ERROR: 19,
  UNMAPPED_SOLC_0_6_3_REVERT_ERROR: 20,
  CONTRACT_TOO_LARGE_ERROR: 21,
  INTERNAL_FUNCTION_CALLSTACK_ENTRY: 22,
  CONTRACT_CALL_RUN_OUT_OF_GAS_ERROR: 23,
} as const;

/** EDR's ContractFunctionType, for call-stack entries. */
const FunctionType = { CONSTRUCTOR: 0, FUNCTION: 1, FALLBACK: 2, RECEIVE: 3 } as const;

export interface StackTraceEntry {
  type: number;
  sourceReference?: SourceReference;
  address?: Uint8Array;
  returnData?: Uint8Array;
  isInvalidOpcodeError?: boolean;
  errorCode?: bigint;
  message?: string;
  value?: bigint;
  functionType?: number;
}

/** One message (call or create) of an execution. */
export interface Frame {
  address: Uint8Array;
  code: Uint8Array;
  isCreate: boolean;
  value: bigint;
  data: Uint8Array;
  /** Program counter and opcode of every step, in order. */
  pcs: number[];
  ops: number[];
  /** Sub-messages, with the index of the step (in this frame) that made each. */
  children: Array<{ frame: Frame; step: number }>;
  error?: string;
  returnValue: Uint8Array;
  /** Known without its steps (`inferFromResult`): `pcs` holds its last step only, `ops` nothing else. */
  partial?: boolean;
}

/** Inference from a frame without its steps came to a question only the steps answer. */
class NeedsSteps extends Error {}

interface MessageLike {
  to?: Address;
  codeAddress?: Address;
  value: bigint;
  data: Uint8Array;
  caller: Address;
}

type Listener = (data: never, resolve?: () => void) => void;
interface Events {
  on(name: string, fn: Listener): void;
  off(name: string, fn: Listener): void;
}

/**
 * Records the message tree of what runs on `vm` until `detach()`; `root()` is the outermost message.
 * `steps`: also every instruction (EthereumJS copies the stack and memory for each step event, so
 * only when a registry can map them to source).
 */
export function recordMessages(vm: VM, steps = true): { root(): Frame | undefined; detach(): void } {
  const events = vm.evm.events as unknown as Events;
  const stack: Frame[] = [];
  let root: Frame | undefined;
  // two parameters: EthereumJS awaits the listener, so the code is read before the message runs
  const before = ((msg: MessageLike, resolve: () => void): void => {
    const frame: Frame = {
      address: msg.to?.bytes ?? new Uint8Array(20),
      code: new Uint8Array(),
      isCreate: msg.to === undefined,
      value: msg.value,
      data: msg.data,
      pcs: [],
      ops: [],
      children: [],
      returnValue: new Uint8Array(),
    };
    const parent = stack.at(-1);
    if (parent === undefined) root = frame;
    else parent.children.push({ frame, step: parent.pcs.length - 1 });
    stack.push(frame);
    if (frame.isCreate) {
      frame.code = msg.data;
      resolve();
      return;
    }
    vm.stateManager.getCode(msg.codeAddress ?? (msg.to as Address)).then(
      (code) => {
        frame.code = code;
        resolve();
      },
      () => resolve(),
    );
  }) as Listener;
  const step = ((s: { pc: number; opcode: { code: number } }): void => {
    const frame = stack.at(-1);
    if (frame === undefined) return;
    frame.pcs.push(s.pc);
    frame.ops.push(s.opcode.code);
  }) as Listener;
  const after = ((r: { execResult: { exceptionError?: { error: string }; returnValue: Uint8Array } }): void => {
    const frame = stack.pop();
    if (frame === undefined) return;
    frame.error = r.execResult.exceptionError?.error;
    frame.returnValue = r.execResult.returnValue;
  }) as Listener;
  events.on("beforeMessage", before);
  if (steps) events.on("step", step);
  events.on("afterMessage", after);
  return {
    root: () => root,
    detach: () => {
      events.off("beforeMessage", before);
      if (steps) events.off("step", step);
      events.off("afterMessage", after);
    },
  };
}

const EXTCODESIZE = 0x3b;
const REVERT = 0xfd;

/** The stack trace of a failed execution (the root frame failed), or undefined when it did not fail. */
export function inferStackTrace(root: Frame, registry: ContractRegistry): StackTraceEntry[] | undefined {
  if (root.error === undefined) return undefined;
  return new Inference(registry).frame(root);
}

/**
 * The stack trace of transaction (or call) `tx` that failed without calling anything (the caller knows
 * it made no calls: `madeNoCalls`), from its own result: where it stopped is its last step, a REVERT, whose program counter
 * the result keeps. Undefined when the answer needs more than that (the REVERT maps to no source, it
 * reverted with no data, it failed another way): then the caller records a run again. Where it
 * answers, it answers as `inferStackTrace` over the full record (test/chain/failure-without-replay.test.ts).
 */
export function inferFromResult(result: RunTxResult, tx: Pick<TypedTransaction, "to" | "value" | "data">, registry: ContractRegistry): StackTraceEntry[] | undefined {
  const ex = result.execResult;
  const state = ex.runState;
  if (ex.exceptionError?.error !== "revert" || state === undefined) return undefined;
  // the interpreter moves the counter past an opcode before running it
  const pc = state.programCounter - 1;
  if (state.code[pc] !== REVERT) return undefined;
  const isCreate = tx.to === undefined;
  const frame: Frame = {
    address: tx.to?.bytes ?? new Uint8Array(20),
    code: isCreate ? tx.data : state.code,
    isCreate,
    value: tx.value,
    data: tx.data,
    pcs: [pc],
    ops: [REVERT],
    children: [],
    error: "revert",
    returnValue: ex.returnValue,
    partial: true,
  };
  try {
    return inferStackTrace(frame, registry);
  } catch (err) {
    if (err instanceof NeedsSteps) return undefined;
    throw err;
  }
}

class Inference {
  constructor(private readonly _registry: ContractRegistry) {}

  frame(f: Frame): StackTraceEntry[] {
    const contract = this._registry.identify(f.code, f.isCreate);
    const last = f.children.at(-1);
    const bubbled = last !== undefined && last.frame.error !== undefined && f.error === "revert" && equalsBytes(last.frame.returnValue, f.returnValue);

    if (contract === undefined) {
      if (bubbled) {
        const entry: StackTraceEntry = f.isCreate
          ? { type: StackTraceEntryType.UNRECOGNIZED_CREATE_CALLSTACK_ENTRY }
          : { type: StackTraceEntryType.UNRECOGNIZED_CONTRACT_CALLSTACK_ENTRY, address: f.address };
        return [entry, ...this.frame(last.frame)];
      }
      const invalid = f.error === "invalid opcode";
      return [
        f.isCreate
          ? { type: StackTraceEntryType.UNRECOGNIZED_CREATE_ERROR, returnData: f.returnValue, isInvalidOpcodeError: invalid }
          : { type: StackTraceEntryType.UNRECOGNIZED_CONTRACT_ERROR, address: f.address, returnData: f.returnValue, isInvalidOpcodeError: invalid },
      ];
    }

    const dispatch = f.error === "revert" && f.returnValue.length === 0 && f.children.length === 0 ? this._dispatchError(f, contract) : undefined;
    if (dispatch !== undefined) return [dispatch];

    if (bubbled) {
      const call = this._at(f, contract, last.step);
      return [{ type: StackTraceEntryType.CALLSTACK_ENTRY, sourceReference: call, functionType: f.isCreate ? FunctionType.CONSTRUCTOR : FunctionType.FUNCTION }, ...this.frame(last.frame)];
    }
    if (last !== undefined && last.frame.error === "out of gas" && f.error === "revert") {
      return [{ type: StackTraceEntryType.CONTRACT_CALL_RUN_OUT_OF_GAS_ERROR, sourceReference: this._at(f, contract, last.step) }];
    }
    return [this._ownError(f, contract)];
  }

  /** Failures of the code solc puts before a function body: selector, payable-ness, parameters. */
  private _dispatchError(f: Frame, c: ContractInfo): StackTraceEntry | undefined {
    if (f.isCreate) {
      if (f.value > 0n && !c.constructorPayable)
        return { type: StackTraceEntryType.FUNCTION_NOT_PAYABLE_ERROR, value: f.value, sourceReference: c.functionDefinition("", "constructor") ?? c.definition() };
      const args = f.data.length - (c.creation?.code.length ?? 0);
      if (args < 32 * c.iface.deploy.inputs.length) return { type: StackTraceEntryType.INVALID_PARAMS_ERROR, sourceReference: c.functionDefinition("", "constructor") ?? c.definition() };
      return undefined;
    }
    const definition = c.definition();
    if (f.data.length === 0) {
      if (!c.hasReceive && !c.hasFallback && definition !== undefined) return { type: StackTraceEntryType.MISSING_FALLBACK_OR_RECEIVE_ERROR, sourceReference: definition };
      if (!c.hasReceive && !c.fallbackPayable && f.value > 0n) {
        return { type: StackTraceEntryType.FALLBACK_NOT_PAYABLE_AND_NO_RECEIVE_ERROR, value: f.value, sourceReference: c.functionDefinition("", "fallback") ?? definition };
      }
      return undefined;
    }
    const fn = f.data.length >= 4 ? c.functions.get(`0x${selectorOf(f.data)}`) : undefined;
    if (fn === undefined) {
      if (!c.hasFallback && definition !== undefined) return { type: StackTraceEntryType.UNRECOGNIZED_FUNCTION_WITHOUT_FALLBACK_ERROR, sourceReference: definition };
      if (!c.fallbackPayable && f.value > 0n) return { type: StackTraceEntryType.FALLBACK_NOT_PAYABLE_ERROR, value: f.value, sourceReference: c.functionDefinition("", "fallback") ?? definition };
      return undefined;
    }
    const where = c.functionDefinition(fn.name) ?? definition;
    if (!fn.payable && f.value > 0n) return { type: StackTraceEntryType.FUNCTION_NOT_PAYABLE_ERROR, value: f.value, sourceReference: where };
    const inputs = c.iface.getFunction(`0x${selectorOf(f.data)}`)?.inputs.length ?? 0;
    if (f.data.length - 4 < 32 * inputs) return { type: StackTraceEntryType.INVALID_PARAMS_ERROR, sourceReference: where };
    return undefined;
  }

  /** The frame's own failure (nothing it called made it fail). */
  private _ownError(f: Frame, c: ContractInfo): StackTraceEntry {
    const at = this._at(f, c, f.pcs.length - 1);
    const data = f.returnValue;
    if (f.error === "invalid opcode") return { type: StackTraceEntryType.REVERT_ERROR, returnData: data, sourceReference: at, isInvalidOpcodeError: true };
    if (f.error !== "revert") return { type: StackTraceEntryType.OTHER_EXECUTION_ERROR, sourceReference: at };
    const selector = selectorOf(data);
    if (selector === PANIC_SELECTOR && data.length === 36) {
      return { type: StackTraceEntryType.PANIC_ERROR, errorCode: BigInt(`0x${Buffer.from(data.subarray(4)).toString("hex")}`), sourceReference: at };
    }
    if (data.length === 0) {
      if (f.partial === true) throw new NeedsSteps();
      // a high-level call to an account without code: solc checks EXTCODESIZE and reverts with nothing
      const recent = f.ops.slice(-16);
      if (recent.includes(EXTCODESIZE) && at !== undefined) return { type: StackTraceEntryType.NONCONTRACT_ACCOUNT_CALLED_ERROR, sourceReference: at };
    }
    if (data.length === 0 || selector === ERROR_SELECTOR) return { type: StackTraceEntryType.REVERT_ERROR, returnData: data, sourceReference: at, isInvalidOpcodeError: false };
    const custom = this._registry.customError(data);
    const message =
      custom !== undefined
        ? `reverted with custom error '${formatCustomError(custom.fragment, custom.args)}'`
        : `reverted with an unrecognized custom error (return data: 0x${Buffer.from(data).toString("hex")})`;
    return { type: StackTraceEntryType.CUSTOM_ERROR, message, sourceReference: at };
  }

  /**
   * Where step `i` of the frame is in the source; when solc mapped that instruction to no source
   * (generated helpers: checked arithmetic, ABI coding), the last earlier step that it did map.
   */
  private _at(f: Frame, c: ContractInfo, i: number): SourceReference | undefined {
    if (f.partial === true) {
      const ref = i === f.pcs.length - 1 ? c.sourceAt(f.pcs[i], f.isCreate) : undefined;
      if (ref === undefined) throw new NeedsSteps();
      return ref;
    }
    for (let k = i; k >= 0; k--) {
      const ref = c.sourceAt(f.pcs[k], f.isCreate);
      if (ref !== undefined) return ref;
    }
    return c.definition();
  }
}
