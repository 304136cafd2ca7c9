/**
 * The cheatcodes this chain runs, by name, with forge-std's signatures (its Vm.sol interface):
 * each handler gets the decoded arguments and what it may touch (the test's state, block env and
 * expectations: src/chain/testing/cheats.ts) and returns the outputs, or revert data.
 */
import type { StateManagerInterface } from "@ethereumjs/common";
import { Account, Address, bigIntToBytes, bytesToHex, hexToBytes, setLengthLeft } from "@ethereumjs/util";
import type { FunctionFragment, Result } from "ethers/abi";
import { getAddress } from "ethers/address";
import { SigningKey } from "ethers/crypto";
import { computeAddress } from "ethers/transaction";
import { getCreate2Address, getCreateAddress } from "ethers/address";
import { getBytes, hexlify, toUtf8Bytes } from "ethers/utils";
import type { Rng } from "../../utils/rng";
import { ASSUME_MAGIC, CheatFailure } from "./cheat-failure";
import type { TestBlockEnv } from "./cheat-env";
import type { ExpectedCall, ExpectedEmit, ExpectedRevert, Mock, Prank } from "./expectations";
import type { LogWatch } from "./log-watch";

/** What the handlers set on the test's cheats (src/chain/testing/cheats.ts). */
export interface CheatsApi {
  readonly env: TestBlockEnv;
  readonly logs: LogWatch;
  readonly labels: Map<string, string>;
  /** The random cheatcodes' sequence (seeded per test run by the runner). */
  readonly random: Rng;
  prank(p: Omit<Prank, "used">): void;
  stopPrank(): void;
  expectRevert(r: ExpectedRevert): void;
  expectEmit(e: Omit<ExpectedEmit, "template">): void;
  expectCall(c: Omit<ExpectedCall, "seen">): void;
  mockCall(to: Address, m: Mock): void;
  clearMocks(): void;
}

/** What a handler may use. */
export interface CheatContext {
  cheats: CheatsApi;
  /** The depth of the cheatcode's message: the next call of the frame that called it has this depth too. */
  depth: number;
  fn: FunctionFragment;
  caller: Address;
  state: StateManagerInterface;
  /** Makes ORIGIN answer `origin` until the returned function is called. */
  setOrigin(origin: Address): () => void;
  setChainId(id: bigint): void;
  /** Makes GASPRICE answer `price` in the rest of the test. */
  setGasPrice(price: bigint): void;
  /** A contract's creation or deployed bytecode from the project's artifacts (`getCode`): "Foo.sol", "Foo.sol:Foo", "Foo". */
  artifactCode(name: string, deployed: boolean): Uint8Array;
  /** Runs `initcode` as a CREATE of `caller` (deployCode); the created address, or the revert data. */
  create(caller: Address, initcode: Uint8Array, value: bigint, depth: number): Promise<Address | Uint8Array>;
  snapshot(): Promise<bigint>;
  revertTo(id: bigint, remove: boolean): Promise<boolean>;
  deleteSnapshot(id: bigint | undefined): boolean;
  /** The process environment (envOr and the env* family). */
  environment: Readonly<Record<string, string | undefined>>;
}

/** Outputs (encoded by the cheatcode's ABI), revert data, or nothing. */
export type CheatHandler = (args: Result, ctx: CheatContext) => Promise<unknown[] | Uint8Array | void> | unknown[] | Uint8Array | void;

const word = (v: bigint): Uint8Array => setLengthLeft(bigIntToBytes(v), 32);
const addr = (a: unknown): Address => new Address(hexToBytes(String(a) as `0x${string}`));

async function account(state: StateManagerInterface, a: Address): Promise<Account> {
  return (await state.getAccount(a)) ?? new Account();
}

function expectRevertArgs(fn: FunctionFragment, args: Result, depth: number, partial: boolean): ExpectedRevert {
  let data: Uint8Array | undefined;
  let reverter: Address | undefined;
  let count = 1;
  fn.inputs.forEach((p, i) => {
    if (p.type === "bytes4" || p.type === "bytes") data = getBytes(args[i]);
    else if (p.type === "address") reverter = addr(args[i]);
    else if (p.type === "uint64") count = Number(args[i]);
  });
  return { data, reverter, partial, depth, count };
}

function envValue(ctx: CheatContext, name: string): string | undefined {
  const v = ctx.environment[name];
  return v === undefined || v === "" ? undefined : v;
}

function parseAs(type: string, text: string): unknown {
  const t = text.trim();
  switch (type) {
    case "bool":
      if (t === "true" || t === "1") return true;
      if (t === "false" || t === "0") return false;
      throw new CheatFailure(`failed parsing "${text}" as type \`bool\``);
    case "uint256":
    case "int256":
      try {
        const v = /^-?0x/i.test(t) ? (t.startsWith("-") ? -BigInt(t.slice(1)) : BigInt(t)) : BigInt(t);
        if (type === "uint256" && v < 0n) throw new Error("negative");
        return v;
      } catch {
        throw new CheatFailure(`failed parsing "${text}" as type \`${type}\``);
      }
    case "address":
      try {
        return getAddress(t);
      } catch {
        throw new CheatFailure(`failed parsing "${text}" as type \`address\``);
      }
    case "bytes32":
    case "bytes":
      if (!/^(0x)?([0-9a-fA-F]{2})*$/.test(t)) throw new CheatFailure(`failed parsing "${text}" as type \`${type}\``);
      return type === "bytes32" ? hexlify(setLengthRight(getBytes(t.startsWith("0x") ? t : `0x${t}`), 32)) : t.startsWith("0x") ? t : `0x${t}`;
    default:
      return t;
  }
}

function setLengthRight(b: Uint8Array, n: number): Uint8Array {
  const out = new Uint8Array(n);
  out.set(b.subarray(0, n));
  return out;
}

function envRead(ctx: CheatContext, args: Result, type: string): unknown[] {
  const v = envValue(ctx, String(args[0]));
  if (v === undefined) throw new CheatFailure(`environment variable "${String(args[0])}" not found`);
  return [parseAs(type, v)];
}

function toStringOf(fn: FunctionFragment, v: unknown): string {
  const type = fn.inputs[0].type;
  if (type === "address") return getAddress(String(v));
  if (type === "bytes" || type === "bytes32") return hexlify(v as string);
  return String(v);
}

// @noble/curves (EthereumJS's curves) is an ES module: Node (≥ 20.19) loads it with require()
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { p256 } = require("@noble/curves/nist.js") as typeof import("@noble/curves/nist.js", { with: { "resolution-mode": "import" } });

/** forge's CREATE2 deployer (Nick's factory), the deployer of `computeCreate2Address(salt, hash)`. */
const CREATE2_DEPLOYER = "0x4e59b44847b379578588920cA78FbF26c0B4956C";
const P256_N = p256.Point.CURVE().n;

function base64(fn: FunctionFragment, v: unknown, url: boolean): string {
  const bytes = fn.inputs[0].type === "string" ? toUtf8Bytes(String(v)) : getBytes(v as string);
  const text = Buffer.from(bytes).toString("base64");
  return url ? text.replace(/\+/g, "-").replace(/\//g, "_") : text;
}

function p256Key(pk: bigint): Uint8Array {
  if (pk === 0n || pk >= P256_N) throw new CheatFailure("private key must be less than the secp256r1 curve order");
  return word(pk);
}

export const handlers: Record<string, CheatHandler> = {
  warp: ([t], { cheats }) => void (cheats.env.timestamp = t as bigint),
  roll: ([n], { cheats }) => void (cheats.env.number = n as bigint),
  fee: ([f], { cheats }) => void (cheats.env.baseFee = f as bigint),
  chainId: ([id], { setChainId }) => {
    if ((id as bigint) >= 2n ** 64n) throw new CheatFailure("chain ID must be less than 2^64 - 1");
    setChainId(id as bigint);
  },
  coinbase: ([a], { cheats }) => void (cheats.env.coinbase = addr(a)),
  prevrandao: ([v], { cheats }) => void (cheats.env.prevRandao = typeof v === "bigint" ? word(v) : getBytes(v as string)),
  txGasPrice: ([p], { cheats, setGasPrice }) => {
    cheats.env.gasPrice = p as bigint;
    setGasPrice(p as bigint);
  },
  getBlockNumber: (_a, { cheats }) => [cheats.env.number],
  getBlockTimestamp: (_a, { cheats }) => [cheats.env.timestamp],
  prank: (args, { cheats, depth }) => cheats.prank({ sender: addr(args[0]), origin: args.length > 1 ? addr(args[1]) : undefined, depth, single: true }),
  startPrank: (args, { cheats, depth }) => cheats.prank({ sender: addr(args[0]), origin: args.length > 1 ? addr(args[1]) : undefined, depth, single: false }),
  stopPrank: (_a, { cheats }) => cheats.stopPrank(),
  deal: async ([a, amount], { state }) => {
    const acc = await account(state, addr(a));
    acc.balance = amount as bigint;
    await state.putAccount(addr(a), acc);
  },
  store: async ([a, slot, value], { state }) => {
    const target = addr(a);
    if ((await state.getAccount(target)) === undefined) await state.putAccount(target, new Account());
    await state.putStorage(target, getBytes(slot as string), getBytes(value as string));
  },
  load: async ([a, slot], { state }) => [bytesToHex(setLengthLeft(await state.getStorage(addr(a), getBytes(slot as string)), 32))],
  etch: async ([a, code], { state }) => {
    const target = addr(a);
    if ((await state.getAccount(target)) === undefined) await state.putAccount(target, new Account());
    await state.putCode(target, getBytes(code as string));
  },
  getNonce: async ([a], { state }) => [(await account(state, addr(a))).nonce],
  setNonce: async ([a, n], { state }) => {
    const acc = await account(state, addr(a));
    if ((n as bigint) < acc.nonce) throw new CheatFailure(`new nonce (${n}) must be strictly equal to or higher than the account's current nonce (${acc.nonce})`);
    acc.nonce = n as bigint;
    await state.putAccount(addr(a), acc);
  },
  setNonceUnsafe: async ([a, n], { state }) => {
    const acc = await account(state, addr(a));
    acc.nonce = n as bigint;
    await state.putAccount(addr(a), acc);
  },
  expectRevert: (args, { cheats, fn, depth }) => cheats.expectRevert(expectRevertArgs(fn, args, depth, false)),
  expectPartialRevert: (args, { cheats, fn, depth }) => cheats.expectRevert(expectRevertArgs(fn, args, depth, true)),
  expectEmit: (args, { cheats, fn, depth }) => {
    const checks: [boolean, boolean, boolean, boolean] = fn.inputs.length >= 4 ? [args[0], args[1], args[2], args[3]] : [true, true, true, true];
    const last = fn.inputs[fn.inputs.length - 1];
    cheats.expectEmit({ depth, checks, emitter: last?.type === "address" ? addr(args[fn.inputs.length - 1]) : undefined });
  },
  expectCall: (args, { cheats, fn }) => {
    const types = fn.inputs.map((p) => p.type);
    const value = types[1] === "uint256" ? (args[1] as bigint) : undefined;
    const data = getBytes(args[types.indexOf("bytes")] as string);
    const hasCount = types[types.length - 1] === "uint64";
    cheats.expectCall({ callee: addr(args[0]), data, value, count: hasCount ? Number(args[types.length - 1]) : 1, exact: hasCount });
  },
  mockCall: (args, { cheats, fn }) => mock(cheats, fn, args, false),
  mockCallRevert: (args, { cheats, fn }) => mock(cheats, fn, args, true),
  clearMockedCalls: (_a, { cheats }) => cheats.clearMocks(),
  record: (_a, { cheats }) => cheats.logs.record(),
  stopRecord: (_a, { cheats }) => cheats.logs.stopRecord(),
  accesses: ([a], { cheats }) => {
    const { reads, writes } = cheats.logs.accesses(String(a));
    return [reads.map((r) => bytesToHex(r)), writes.map((w) => bytesToHex(w))];
  },
  recordLogs: (_a, { cheats }) => cheats.logs.recordLogs(),
  getRecordedLogs: (_a, { cheats }) => [cheats.logs.takeRecorded().map((l) => [l.topics.map((t) => bytesToHex(t)), bytesToHex(l.data), bytesToHex(l.emitter)])],
  label: ([a, name], { cheats }) => void cheats.labels.set(getAddress(String(a)), String(name)),
  getLabel: ([a], { cheats }) => [cheats.labels.get(getAddress(String(a))) ?? `unlabeled:${getAddress(String(a))}`],
  addr: ([pk]) => [computeAddress(privateKey(pk as bigint))],
  sign: ([pk, digest]) => {
    const sig = new SigningKey(privateKey(pk as bigint)).sign(digest as string);
    return [sig.v, sig.r, sig.s];
  },
  toString: ((args, { fn }) => [toStringOf(fn, args[0])]) as CheatHandler,
  parseBytes: ([s]) => [parseAs("bytes", String(s))],
  parseAddress: ([s]) => [parseAs("address", String(s))],
  parseUint: ([s]) => [parseAs("uint256", String(s))],
  parseInt: ([s]) => [parseAs("int256", String(s))],
  parseBytes32: ([s]) => [parseAs("bytes32", String(s))],
  parseBool: ([s]) => [parseAs("bool", String(s))],
  snapshotState: async (_a, ctx) => [await ctx.snapshot()],
  snapshot: async (_a, ctx) => [await ctx.snapshot()],
  revertToState: async ([id], ctx) => [await ctx.revertTo(id as bigint, false)],
  revertTo: async ([id], ctx) => [await ctx.revertTo(id as bigint, false)],
  revertToStateAndDelete: async ([id], ctx) => [await ctx.revertTo(id as bigint, true)],
  deleteStateSnapshot: ([id], ctx) => [ctx.deleteSnapshot(id as bigint)],
  deleteStateSnapshots: (_a, ctx) => void ctx.deleteSnapshot(undefined),
  assume: ([condition]) => (condition === true ? undefined : ASSUME_MAGIC),
  getCode: ([name], ctx) => [ctx.artifactCode(String(name), false)],
  getDeployedCode: ([name], ctx) => [ctx.artifactCode(String(name), true)],
  deployCode: async (args, ctx) => {
    const code = ctx.artifactCode(String(args[0]), false);
    const initcode = args.length > 1 ? new Uint8Array([...code, ...getBytes(args[1] as string)]) : code;
    const created = await ctx.create(ctx.caller, initcode, 0n, ctx.depth);
    if (created instanceof Uint8Array) throw new CheatFailure(`could not deploy ${String(args[0])}: the constructor reverted${created.length > 0 ? ` with ${bytesToHex(created)}` : ""}`);
    return [created.toString()];
  },
  envOr: (args, ctx) => {
    const v = envValue(ctx, String(args[0]));
    return [v === undefined ? args[1] : parseAs(ctx.fn.inputs[1].type, v)];
  },
  randomAddress: (_a, { cheats }) => [getAddress(hexlify(cheats.random.bytes(20)))],
  randomUint: (args, { cheats, fn }) => {
    if (fn.inputs.length === 2) {
      const [min, max] = args as unknown as [bigint, bigint];
      if (min > max) throw new CheatFailure(`min must be less than or equal to max`);
      return [min + (cheats.random.bits(256) % (max - min + 1n))];
    }
    const bits = fn.inputs.length === 1 ? Number(args[0]) : 256;
    if (bits > 256) throw new CheatFailure("number of bits cannot exceed 256");
    return [bits === 0 ? 0n : cheats.random.bits(bits)];
  },
  randomInt: (args, { cheats, fn }) => {
    const bits = fn.inputs.length === 1 ? Number(args[0]) : 256;
    if (bits > 256) throw new CheatFailure("number of bits cannot exceed 256");
    return [bits === 0 ? 0n : BigInt.asIntN(bits, cheats.random.bits(bits))];
  },
  randomBool: (_a, { cheats }) => [cheats.random.below(2) === 1],
  randomBytes: ([n], { cheats }) => [hexlify(cheats.random.bytes(Number(n)))],
  randomBytes4: (_a, { cheats }) => [hexlify(cheats.random.bytes(4))],
  randomBytes8: (_a, { cheats }) => [hexlify(cheats.random.bytes(8))],
  toBase64: (args, { fn }) => [base64(fn, args[0], false)],
  toBase64URL: (args, { fn }) => [base64(fn, args[0], true)],
  publicKeyP256: ([pk]) => {
    const point = p256.Point.fromBytes(p256.getPublicKey(p256Key(pk as bigint), false));
    return [point.x, point.y];
  },
  signP256: ([pk, digest]) => {
    const sig = p256.Signature.fromBytes(p256.sign(getBytes(digest as string), p256Key(pk as bigint), { prehash: false, lowS: false }), "compact");
    return [bytesToHex(word(sig.r)), bytesToHex(word(sig.s))];
  },
  computeCreateAddress: ([deployer, nonce]) => [getCreateAddress({ from: String(deployer), nonce: nonce as bigint })],
  computeCreate2Address: (args) => [getCreate2Address(args.length > 2 ? String(args[2]) : CREATE2_DEPLOYER, args[0] as string, args[1] as string)],
  envExists: ([name], ctx) => [envValue(ctx, String(name)) !== undefined],
  envBool: (args, ctx) => envRead(ctx, args, "bool"),
  envUint: (args, ctx) => envRead(ctx, args, "uint256"),
  envInt: (args, ctx) => envRead(ctx, args, "int256"),
  envAddress: (args, ctx) => envRead(ctx, args, "address"),
  envBytes32: (args, ctx) => envRead(ctx, args, "bytes32"),
  envString: (args, ctx) => envRead(ctx, args, "string"),
  envBytes: (args, ctx) => envRead(ctx, args, "bytes"),
};

function mock(cheats: CheatsApi, fn: FunctionFragment, args: Result, revert: boolean): void {
  const withValue = fn.inputs.length === 4;
  cheats.mockCall(addr(args[0]), {
    data: getBytes(args[withValue ? 2 : 1] as string),
    value: withValue ? (args[1] as bigint) : undefined,
    returnData: getBytes(args[withValue ? 3 : 2] as string),
    revert,
  });
}

const SECP256K1_N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

function privateKey(pk: bigint): string {
  if (pk === 0n || pk >= SECP256K1_N) throw new CheatFailure("private key must be less than the secp256k1 curve order");
  return bytesToHex(word(pk));
}
