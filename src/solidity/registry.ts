/**
 * The contracts a project compiled, fed from solc's standard-JSON input and output (Hardhat's
 * build-info files, `hardhat_addCompilationResult`). It recognises deployed code and init code the
 * way Hardhat does — immutables, library links and the trailing metadata hash do not count — and
 * answers, for a recognised contract, where an instruction is in the source (file, line, enclosing
 * function) and what its ABI says (functions, payable-ness, fallback/receive, custom errors).
 */
import { AbiCoder, ErrorFragment, Interface, type Result } from "ethers/abi";
import { getAddress } from "ethers/address";
import { keccak256 } from "../utils/keccak";
import { type Bytecode, type SolcBytecode, bytecodeOf } from "./bytecode";
import { lineOf } from "./source-map";

/** What Hardhat's SourceReference holds. */
export interface SourceReference {
  sourceName: string;
  sourceContent: string;
  contract?: string;
  function?: string;
  line: number;
  range: [number, number];
}

interface SolcContract {
  abi?: unknown[];
  evm?: { bytecode?: SolcBytecode; deployedBytecode?: SolcBytecode };
}

interface AstNode {
  nodeType?: string;
  src?: string;
  name?: string;
  kind?: string;
  nodes?: AstNode[];
}

/** The parts of solc's standard JSON the registry reads. */
export interface SolcInput {
  sources?: Record<string, { content?: string }>;
}
export interface SolcOutput {
  sources?: Record<string, { id: number; ast?: AstNode }>;
  contracts?: Record<string, Record<string, SolcContract>>;
}

interface FunctionRange {
  start: number;
  end: number;
  name: string;
  kind: string;
  contract?: string;
}

interface SourceFile {
  name: string;
  content: Buffer;
  text: string;
  functions: FunctionRange[];
  /** Where each contract of the file is defined (its name → [start, length]). */
  contracts: Map<string, [number, number]>;
}

/** One compilation: its sources by solc's source index. */
class Compilation {
  readonly files = new Map<number, SourceFile>();
}

interface AbiFunction {
  name: string;
  payable: boolean;
  /** `name(type,…)`, as gas statistics name it. */
  signature: string;
}

/**
 * A compiled contract the registry knows. Its ABI is read by ethers on first use: a project's
 * compilations hold hundreds of contracts (OpenZeppelin's tests: 412 in one build-info) and most are
 * never named in a failure or a log line; building every Interface up front was most of a chain's
 * registry start.
 */
export class ContractInfo {
  private _iface: Interface | undefined;
  private _functions: Map<string, AbiFunction> | undefined;

  constructor(
    readonly sourceName: string,
    readonly name: string,
    /** The ABI as solc gave it. */
    readonly abi: readonly unknown[],
    readonly creation: Bytecode | undefined,
    readonly deployed: Bytecode | undefined,
    private readonly _compilation: Compilation,
  ) {}

  /** The ABI as ethers reads it (one ethers cannot read reads as an empty ABI: the contract is then named, never its functions). */
  get iface(): Interface {
    if (this._iface === undefined) {
      try {
        this._iface = new Interface(this.abi as never);
      } catch {
        this._iface = new Interface([]);
      }
    }
    return this._iface;
  }

  /** Its functions by selector. */
  get functions(): ReadonlyMap<string, AbiFunction> {
    if (this._functions === undefined) {
      const functions = new Map<string, AbiFunction>();
      this.iface.forEachFunction((f) => functions.set(f.selector, { name: f.name, payable: f.payable, signature: f.format("sighash") }));
      this._functions = functions;
    }
    return this._functions;
  }

  get hasFallback(): boolean {
    return this.iface.fallback !== null;
  }

  get fallbackPayable(): boolean {
    return this.iface.fallback?.payable === true;
  }

  get hasReceive(): boolean {
    return this.iface.receive;
  }

  get constructorPayable(): boolean {
    return this.iface.deploy.payable;
  }

  /** Where the instruction at `pc` is, with its enclosing function; undefined when solc mapped it to no source. */
  sourceAt(pc: number, deployment: boolean): SourceReference | undefined {
    const loc = (deployment ? this.creation : this.deployed)?.location(pc);
    if (loc === undefined || loc.file < 0) return undefined;
    return this.reference(loc.file, loc.start, loc.length);
  }

  /** A SourceReference for a range of source `file`, the function enclosing it named. */
  reference(file: number, start: number, length: number): SourceReference | undefined {
    const src = this._compilation.files.get(file);
    if (src === undefined) return undefined;
    let fn: FunctionRange | undefined;
    for (const f of src.functions) {
      if (f.start <= start && start + length <= f.end && (fn === undefined || f.end - f.start < fn.end - fn.start)) fn = f;
    }
    return {
      sourceName: src.name,
      sourceContent: src.text,
      contract: fn?.contract ?? this.name,
      function: fn === undefined ? undefined : functionLabel(fn),
      line: lineOf(src.content, start),
      range: [start, start + length],
    };
  }

  /** The contract's own definition (the location Hardhat gives dispatcher failures). */
  definition(): SourceReference | undefined {
    for (const [id, src] of this._compilation.files) {
      if (src.name !== this.sourceName) continue;
      const at = src.contracts.get(this.name);
      if (at === undefined) return undefined;
      const ref = this.reference(id, at[0], at[1]);
      return ref === undefined ? undefined : { ...ref, contract: this.name, function: undefined };
    }
    return undefined;
  }

  /** The definition of function `name` (kind "function"), or of the constructor / fallback / receive. */
  functionDefinition(name: string, kind = "function"): SourceReference | undefined {
    for (const [id, src] of this._compilation.files) {
      const f = src.functions.find((x) => x.contract === this.name && x.kind === kind && (kind !== "function" || x.name === name));
      if (f !== undefined) return this.reference(id, f.start, f.end - f.start);
    }
    return undefined;
  }
}

function functionLabel(f: FunctionRange): string {
  if (f.kind === "constructor") return "constructor";
  if (f.kind === "fallback") return "<fallback>";
  if (f.kind === "receive") return "<receive>";
  return f.name;
}

/** "s:l:f" → numbers. */
function parseSrc(src: string | undefined): [number, number, number] | undefined {
  if (src === undefined) return undefined;
  const [s, l, f] = src.split(":").map(Number);
  return Number.isFinite(s) && Number.isFinite(l) && Number.isFinite(f) ? [s, l, f] : undefined;
}

function collect(node: AstNode, contract: string | undefined, file: SourceFile): void {
  const at = parseSrc(node.src);
  if (node.nodeType === "ContractDefinition" && node.name !== undefined) {
    if (at !== undefined) file.contracts.set(node.name, [at[0], at[1]]);
    contract = node.name;
  } else if ((node.nodeType === "FunctionDefinition" || node.nodeType === "ModifierDefinition") && at !== undefined) {
    file.functions.push({ start: at[0], end: at[0] + at[1], name: node.name ?? "", kind: node.kind ?? "modifier", contract });
  }
  for (const child of node.nodes ?? []) collect(child, contract, file);
}

/**
 * The contracts of a solc run, built once per output object: a build-info file read once in a
 * process (src/host/solidity/compilations.ts) serves every chain's registry, each Hardhat 3 connection's
 * included. The contracts are not changed once built (their lazy caches depend on the code only).
 */
const builtOutputs = new WeakMap<SolcOutput, ContractInfo[]>();

function contractsOf(input: SolcInput, output: SolcOutput): ContractInfo[] {
  const built = builtOutputs.get(output);
  if (built !== undefined) return built;
  const compilation = new Compilation();
  for (const [name, s] of Object.entries(output.sources ?? {})) {
    const text = input.sources?.[name]?.content ?? "";
    const file: SourceFile = { name, content: Buffer.from(text, "utf8"), text, functions: [], contracts: new Map() };
    if (s.ast !== undefined) collect(s.ast, undefined, file);
    compilation.files.set(s.id, file);
  }
  const infos: ContractInfo[] = [];
  for (const [sourceName, contracts] of Object.entries(output.contracts ?? {})) {
    for (const [name, c] of Object.entries(contracts)) {
      try {
        infos.push(new ContractInfo(sourceName, name, Array.isArray(c.abi) ? c.abi : [], bytecodeOf(c.evm?.bytecode), bytecodeOf(c.evm?.deployedBytecode), compilation));
      } catch {
        continue; // bytecode that is not hex: the contract stays unrecognised
      }
    }
  }
  builtOutputs.set(output, infos);
  return infos;
}

interface CallDescription {
  contract: string;
  function?: string;
}

export class ContractRegistry {
  private readonly _contracts: ContractInfo[] = [];
  /** Custom errors by selector, from every registered contract's ABI (built on the first lookup after a change). */
  private _errors: Map<string, ErrorFragment> | undefined;
  /** Every contract added, interfaces and abstract ones included (their errors count), in the order added. */
  private readonly _declared: ContractInfo[] = [];
  private readonly _byCode = new Map<string, ContractInfo | null>();
  /**
   * The names of deployed code once identified, by the code's keccak256 (hex): what still names a
   * contract when no compilation matches its code any more (the project recompiled it with other
   * code and the build-info that named it is gone). A node with a home keeps them across restarts
   * (src/host/node/contract-names.ts).
   */
  private readonly _names = new Map<string, string>();
  private _onName: ((codeHash: string, name: string) => void) | undefined;

  /** Names known from before (a home's file), and who hears of each one learned from now on. */
  rememberNames(names: Iterable<[string, string]>, onName?: (codeHash: string, name: string) => void): void {
    for (const [hash, name] of names) this._names.set(hash, name);
    this._onName = onName;
  }

  get size(): number {
    return this._contracts.length;
  }

  /** Adds every contract with bytecode of one solc run (standard-JSON input and output). */
  addCompilation(input: SolcInput, output: SolcOutput): void {
    for (const info of contractsOf(input, output)) {
      this._declared.push(info);
      if (info.creation !== undefined || info.deployed !== undefined) this._contracts.unshift(info);
    }
    this._errors = undefined;
    this._byCode.clear();
  }

  /** The contract whose deployed code (or, with `deployment`, whose init code starts `code`) this is. */
  identify(code: Uint8Array, deployment: boolean): ContractInfo | undefined {
    if (code.length === 0 || this._contracts.length === 0) return undefined;
    const key = `${deployment ? "i" : "d"}${Buffer.from(code).toString("hex")}`;
    const hit = this._byCode.get(key);
    if (hit !== undefined) return hit ?? undefined;
    const found = this._contracts.find((c) => (deployment ? c.creation : c.deployed)?.matches(code, deployment) === true);
    this._byCode.set(key, found ?? null);
    if (found !== undefined && !deployment) {
      const hash = codeHash(code);
      if (this._names.get(hash) !== found.name) {
        this._names.set(hash, found.name);
        this._onName?.(hash, found.name);
      }
    }
    return found;
  }

  /** A custom error any registered contract declares, by the revert data's selector. */
  customError(data: Uint8Array): { fragment: ErrorFragment; args: Result } | undefined {
    if (data.length < 4) return undefined;
    const fragment = this._errorsBySelector().get(`0x${Buffer.from(data.subarray(0, 4)).toString("hex")}`);
    if (fragment === undefined) return undefined;
    try {
      // what Interface.decodeErrorResult does once the selector matched, without building an
      // Interface per failure (a fifth of a failed transaction's stack trace in a CPU profile)
      return { fragment, args: AbiCoder.defaultAbiCoder().decode(fragment.inputs, data.subarray(4)) };
    } catch {
      return undefined;
    }
  }

  /** The custom errors declared in the ABIs, a later declaration of a selector over an earlier one. */
  private _errorsBySelector(): Map<string, ErrorFragment> {
    if (this._errors !== undefined) return this._errors;
    const errors = new Map<string, ErrorFragment>();
    for (const info of this._declared) {
      for (const entry of info.abi) {
        if ((entry as { type?: unknown }).type !== "error") continue;
        try {
          const e = ErrorFragment.from(entry as never);
          errors.set(e.selector, e);
        } catch {
          // an entry ethers cannot read: not decoded
        }
      }
    }
    this._errors = errors;
    return errors;
  }

  /** Contract and function of a call with `data` to an account holding `code`. */
  describeCall(code: Uint8Array, data: Uint8Array): CallDescription | undefined {
    const c = this.identify(code, false);
    if (c === undefined) {
      // no compilation matches: the name it had when one did, without its functions
      const name = this._names.size === 0 || code.length === 0 ? undefined : this._names.get(codeHash(code));
      return name === undefined ? undefined : { contract: name };
    }
    if (data.length >= 4) {
      const f = c.functions.get(`0x${Buffer.from(data.subarray(0, 4)).toString("hex")}`);
      if (f !== undefined) return { contract: c.name, function: f.name };
    }
    if (data.length === 0 && c.hasReceive) return { contract: c.name, function: "receive" };
    return c.hasFallback ? { contract: c.name, function: "fallback" } : { contract: c.name };
  }

  /** The contract `initCode` deploys. */
  describeDeploy(initCode: Uint8Array): { contract: string } | undefined {
    const c = this.identify(initCode, true);
    return c === undefined ? undefined : { contract: c.name };
  }
}

const codeHash = (code: Uint8Array): string => `0x${Buffer.from(keccak256(code)).toString("hex")}`;

/** A custom error as Hardhat prints it: `Name(arg, …)`, addresses checksummed and strings quoted. */
export function formatCustomError(fragment: ErrorFragment, args: Result): string {
  return `${fragment.name}(${fragment.inputs.map((_, i) => formatValue(args[i])).join(", ")})`;
}

function formatValue(v: unknown): string {
  if (typeof v === "bigint" || typeof v === "number" || typeof v === "boolean") return String(v);
  if (typeof v === "string") return /^0x[0-9a-fA-F]{40}$/.test(v) ? `"${getAddress(v)}"` : JSON.stringify(v);
  if (Array.isArray(v)) return `[${v.map(formatValue).join(", ")}]`;
  return JSON.stringify(String(v));
}
