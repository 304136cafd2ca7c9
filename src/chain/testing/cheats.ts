/**
 * forge's cheatcodes on this chain's EVM, for Solidity tests (src/chain/testing/test-vm.ts). A call to
 * forge's cheatcode address never runs code: the test VM's EVM hands every message to `Cheats`
 * (a `MessageInterceptor`, src/chain/engine/evm.ts), which answers cheatcode calls itself and puts
 * what the cheatcodes asked for around the other messages: a prank's sender, an expected revert, an
 * expected emit or call, a mocked call. The block they run in is `TestBlockEnv`'s (warp, roll, fee).
 * Semantics and failure texts follow forge's (foundry's `crates/cheatcodes`); a cheatcode this chain
 * does not support reverts naming it, never passes silently.
 */
import { EVMError, type EVMResult, type EVMRunCallOpts, type ExecResult } from "@ethereumjs/evm";
import { Address, bytesToHex, equalsBytes, hexToBytes } from "@ethereumjs/util";
import { Interface, type FunctionFragment, type Result } from "ethers/abi";
import { getBytes } from "ethers/utils";
import { revertData } from "../base/precompile";
import SIGNATURES from "./vm-signatures.json";
import { checkAssertion, isAssertion } from "./assertions";
import type { TestBlockEnv } from "./cheat-env";
import { CHEAT_ABI } from "./cheat-abi";
import { type CheatContext, type CheatHandler, type CheatsApi, handlers } from "./cheat-handlers";
import { CheatFailure } from "./cheat-failure";
import type { ExpectedCall, ExpectedEmit, ExpectedRevert, Mock, Prank } from "./expectations";
import type { LogWatch } from "./log-watch";
import { Rng } from "../../utils/rng";

/** forge's cheatcode address: keccak256("hevm cheat code"), last 20 bytes. */
export const VM_ADDRESS = "0x7109709ecfa91a80626ff3989d68f67f5b1dd12d";
const VM_BYTES = hexToBytes(VM_ADDRESS);
/** forge's stand-in output of a call whose expected revert happened: zeros enough for any decoder. */
const DUMMY_OUTPUT = new Uint8Array(8192);
const DUMMY_CREATE = new Address(hexToBytes("0x0000000000000000000000000000000000000001"));

/** The cheatcodes by selector, made once: ethers hashes every fragment's signature again at each lookup by selector. */
const BY_SELECTOR = new Map<string, FunctionFragment>();
CHEAT_ABI.forEachFunction((f) => BY_SELECTOR.set(f.selector, f));

const NO_LOGS = "expected an emit, but no logs were emitted afterwards. you might have mismatched events or not enough events were emitted";

type Message = NonNullable<EVMRunCallOpts["message"]>;

const ok = (returnValue: Uint8Array, logs?: ExecResult["logs"]): EVMResult => ({ execResult: { returnValue, executionGasUsed: 0n, ...(logs !== undefined && logs.length > 0 ? { logs } : {}) } });
const reverted = (returnValue: Uint8Array): EVMResult => ({ execResult: { returnValue, executionGasUsed: 0n, exceptionError: new EVMError(EVMError.errorMessages.REVERT) } });

export class Cheats implements CheatsApi {
  private readonly _abi = CHEAT_ABI;
  private _prank?: Prank;
  private _revert?: ExpectedRevert;
  private _emits: ExpectedEmit[] = [];
  private _calls: ExpectedCall[] = [];
  private _mocks = new Map<string, Mock[]>();
  /** The account whose code reverted first inside the call an expected revert watches (the reverter forge checks). */
  private _reverter?: Address | null;
  /** A failure found after the call it concerns returned (an expected call never made): the test fails with it. */
  failure?: string;
  readonly labels = new Map<string, string>();
  random = new Rng(0n);
  /** The contracts created since the last `reset` (the targets of an invariant test: what `setUp` deployed). */
  readonly created: Address[] = [];

  constructor(
    readonly env: TestBlockEnv,
    private readonly _ctx: Omit<CheatContext, "cheats">,
    readonly logs: LogWatch,
    /** The chain's own cheats (an epoch advanced): their address and handler. */
    private readonly _chain?: { address: Uint8Array; run(data: Uint8Array): Promise<EVMResult>; running(): boolean },
  ) {}

  /** Clears what one test set up, for the next (the state itself is reverted by the runner). */
  reset(): void {
    this._prank = undefined;
    this._revert = undefined;
    this._emits = [];
    this._calls = [];
    this._mocks.clear();
    this.failure = undefined;
    this.created.length = 0;
    this.logs.reset();
  }

  /**
   * Whether a test that reverted itself met the revert its own frame expected (forge's inline
   * `allow_internal_expect_revert`: a library function's revert unwinds the test function).
   */
  internalRevertMet(data: Uint8Array): boolean {
    const r = this._revert;
    return r !== undefined && r.depth === 1 && (r.data === undefined || revertMatches(r.data, data, r.partial));
  }

  /** What a test left unmet when it returned (an expected revert, emit or call that never came). */
  unmet(): string | undefined {
    if (this.failure !== undefined) return this.failure;
    if (this._revert !== undefined) return "next call did not revert as expected";
    if (this._emits.length > 0) return NO_LOGS;
    for (const c of this._calls) {
      const times = (n: number): string => `${n} time${n === 1 ? "" : "s"}`;
      if (c.exact ? c.seen !== c.count : c.seen < c.count) {
        const value = c.value === undefined ? "" : ` and value ${c.value}`;
        return `expected call to ${c.callee.toString()} with data ${bytesToHex(c.data)}${value} to be called ${c.exact ? times(c.count) : `at least ${times(c.count)}`}, but was called ${times(c.seen)}`;
      }
    }
    return undefined;
  }

  async runCall(opts: EVMRunCallOpts, next: (opts: EVMRunCallOpts) => Promise<EVMResult>): Promise<EVMResult> {
    const msg = opts.message;
    // the blocks a chain cheat makes run the chain's code: no prank, mock or expectation applies to it
    if (this._chain?.running() === true) return next(opts);
    if (msg === undefined || msg.to === undefined) return msg === undefined ? next(opts) : this._around(msg, opts, next);
    if (equalsBytes(msg.to.bytes, VM_BYTES)) return this._cheatcode(msg);
    if (this._chain !== undefined && equalsBytes(msg.to.bytes, this._chain.address)) return this._around(msg, opts, () => this._chain!.run(msg.data));
    return this._around(msg, opts, next);
  }

  /** A message other than a cheatcode: the prank, mocks, expected calls, reverts and emits around it. */
  private async _around(msg: Message, opts: EVMRunCallOpts, next: (opts: EVMRunCallOpts) => Promise<EVMResult>): Promise<EVMResult> {
    const prank = this._prank;
    let restoreOrigin: (() => void) | undefined;
    if (prank !== undefined && msg.depth === prank.depth && msg.delegatecall !== true) {
      msg.caller = prank.sender;
      if (prank.origin !== undefined) restoreOrigin = this._ctx.setOrigin(prank.origin);
      prank.used = true;
      if (prank.single) this._prank = undefined;
    }
    if (msg.to !== undefined) {
      for (const c of this._calls) if (c.callee.equals(msg.to) && startsWith(msg.data, c.data) && (c.value === undefined || c.value === msg.value)) c.seen++;
    }
    const revert = this._revert !== undefined && msg.depth === this._revert.depth ? this._revert : undefined;
    const emits = this._emits.filter((e) => e.depth === msg.depth && e.template !== undefined);
    if (revert !== undefined) this._reverter = null;
    // a creation's message gets its address (`to`) while it runs
    const isCreate = msg.to === undefined;
    try {
      const mocked = msg.to === undefined ? undefined : this._mocked(msg.to, msg.data, msg.value);
      const result = mocked ?? (await next(opts));
      if (this._reverter === null && result.execResult.exceptionError !== undefined) this._reverter = msg.to ?? result.createdAddress;
      if (isCreate && result.execResult.exceptionError === undefined && result.createdAddress !== undefined) this.created.push(result.createdAddress);
      if (revert !== undefined) return this._checkRevert(revert, result, msg, isCreate);
      if (emits.length > 0) return this._checkEmits(emits, result);
      return result;
    } finally {
      restoreOrigin?.();
    }
  }

  private _mocked(to: Address, data: Uint8Array, value: bigint): EVMResult | undefined {
    const mocks = this._mocks.get(to.toString());
    if (mocks === undefined) return undefined;
    // the longest matching calldata wins, as in forge
    let best: Mock | undefined;
    for (const m of mocks) if (startsWith(data, m.data) && (m.value === undefined || m.value === value) && (best === undefined || m.data.length > best.data.length)) best = m;
    if (best === undefined) return undefined;
    return best.revert ? reverted(best.returnData) : ok(best.returnData);
  }

  private _checkRevert(expected: ExpectedRevert, result: EVMResult, msg: Message, isCreate: boolean): EVMResult {
    const err = result.execResult.exceptionError;
    const fail = (reason: string): EVMResult => {
      this._revert = undefined;
      return reverted(revertData(reason));
    };
    if (err === undefined) return fail("next call did not revert as expected");
    const data = result.execResult.returnValue;
    if (expected.data !== undefined && !revertMatches(expected.data, data, expected.partial)) {
      return fail(`Error != expected error: ${describeRevert(data)} != ${describeRevert(expected.data)}`);
    }
    const reverter = this._reverter ?? msg.to;
    this._reverter = undefined;
    if (expected.reverter !== undefined && reverter !== undefined && !expected.reverter.equals(reverter)) {
      return fail(`Reverter != expected reverter: ${reverter.toString()} != ${expected.reverter.toString()}`);
    }
    expected.count--;
    if (expected.count <= 0) this._revert = undefined;
    return isCreate
      ? { createdAddress: DUMMY_CREATE, execResult: { returnValue: new Uint8Array(), executionGasUsed: result.execResult.executionGasUsed } }
      : { execResult: { returnValue: DUMMY_OUTPUT, executionGasUsed: result.execResult.executionGasUsed } };
  }

  /** The expected emits of the frame that just called, against the logs its call emitted (in order, others between allowed). */
  private _checkEmits(emits: ExpectedEmit[], result: EVMResult): EVMResult {
    if (result.execResult.exceptionError !== undefined) {
      this._emits = this._emits.filter((x) => !emits.includes(x));
      return reverted(revertData("expected an emit, but the call reverted instead. ensure you're testing the happy path when using `expectEmit`"));
    }
    const logs = result.execResult.logs ?? [];
    let at = 0;
    for (const e of emits) {
      const found = logs.findIndex((l, i) => i >= at && logMatches(e, l));
      this._emits = this._emits.filter((x) => x !== e);
      if (found < 0) return reverted(revertData(logs.length === 0 ? NO_LOGS : "log != expected log"));
      at = found + 1;
    }
    return result;
  }

  /** A call to forge's cheatcode address. */
  private async _cheatcode(msg: Message): Promise<EVMResult> {
    const data = msg.data;
    const selector = bytesToHex(data.subarray(0, 4));
    const fn = data.length >= 4 ? (BY_SELECTOR.get(selector) ?? null) : null;
    const known = (SIGNATURES as Record<string, string>)[selector];
    if (fn === null) {
      const name = known ?? `the cheatcode with selector ${selector}`;
      return reverted(revertData(`vm.${name.replace(/\(.*$/, "")}: ${known === undefined ? name : `cheatcode ${known}`} is not supported on the epochs chain`));
    }
    let args: Result;
    try {
      args = this._abi.decodeFunctionData(fn, data);
    } catch (err) {
      return reverted(revertData(`vm.${fn.name}: bad arguments: ${(err as Error).message}`));
    }
    try {
      if (isAssertion(fn.name)) {
        const failure = checkAssertion(fn.name, fn.inputs, args);
        return failure === undefined ? ok(new Uint8Array()) : reverted(revertData(failure));
      }
      const handler: CheatHandler | undefined = handlers[fn.name];
      if (handler === undefined) return reverted(revertData(`vm.${fn.name}: not supported on the epochs chain`));
      const out = await handler(args, { ...this._ctx, cheats: this, depth: msg.depth, fn, caller: msg.caller });
      if (out instanceof Uint8Array) return reverted(out);
      return ok(getBytes(this._abi.encodeFunctionResult(fn, out ?? [])));
    } catch (err) {
      if (err instanceof CheatFailure) return reverted(revertData(`vm.${fn.name}: ${err.message}`));
      throw err;
    }
  }

  // what the handlers set (src/chain/testing/cheat-handlers.ts)

  prank(p: Omit<Prank, "used">): void {
    if (this._prank !== undefined && this._prank.single && !this._prank.used && p.depth === this._prank.depth) throw new CheatFailure("cannot overwrite a prank until it is applied at least once");
    this._prank = { ...p, used: false };
  }

  stopPrank(): void {
    this._prank = undefined;
  }

  expectRevert(r: ExpectedRevert): void {
    if (this._revert !== undefined) throw new CheatFailure("you must call another function prior to expecting a second revert");
    this._revert = r;
  }

  expectEmit(e: Omit<ExpectedEmit, "template">): void {
    const pending: ExpectedEmit = { ...e };
    this._emits.push(pending);
    // the next log the same frame emits is the template, not a real emit to check
    this.logs.captureNext(e.depth - 1, (log) => {
      pending.template = log;
    });
  }

  expectCall(c: Omit<ExpectedCall, "seen">): void {
    this._calls.push({ ...c, seen: 0 });
  }

  mockCall(to: Address, m: Mock): void {
    const key = to.toString();
    const list = (this._mocks.get(key) ?? []).filter((x) => !(equalsBytes(x.data, m.data) && x.value === m.value));
    list.push(m);
    this._mocks.set(key, list);
  }

  clearMocks(): void {
    this._mocks.clear();
  }
}

function startsWith(data: Uint8Array, prefix: Uint8Array): boolean {
  return data.length >= prefix.length && equalsBytes(data.subarray(0, prefix.length), prefix);
}

const ERROR_STRING = new Interface(["error Error(string)", "error CheatcodeError(string)"]);

/** The message of Error(string) / CheatcodeError(string) revert data, if it is one. */
function revertMessage(data: Uint8Array): string | undefined {
  try {
    const e = ERROR_STRING.parseError(data);
    return e === null ? undefined : String(e.args[0]);
  } catch {
    return undefined;
  }
}

/** forge's match of revert data: the bytes, or the expected bytes as the message of an Error(string); `partial`: the selector only. */
function revertMatches(expected: Uint8Array, actual: Uint8Array, partial: boolean): boolean {
  if (partial) return startsWith(actual, expected.subarray(0, 4));
  if (equalsBytes(expected, actual)) return true;
  const message = revertMessage(actual);
  return message !== undefined && message === new TextDecoder().decode(expected);
}

function describeRevert(data: Uint8Array): string {
  const message = revertMessage(data);
  if (message !== undefined) return message;
  const text = new TextDecoder("utf-8", { fatal: false }).decode(data);
  return /^[\x20-\x7e]+$/.test(text) ? text : bytesToHex(data);
}

function logMatches(e: ExpectedEmit, [address, topics, data]: [Uint8Array, Uint8Array[], Uint8Array]): boolean {
  const t = e.template!;
  if (e.emitter !== undefined && !equalsBytes(e.emitter.bytes, address)) return false;
  if (topics.length !== t.topics.length) return false;
  if (topics.length > 0 && !equalsBytes(topics[0], t.topics[0])) return false;
  for (let i = 1; i < topics.length; i++) if (e.checks[i - 1] && !equalsBytes(topics[i], t.topics[i])) return false;
  return !e.checks[3] || equalsBytes(data, t.data);
}
