/**
 * ContractNames from the project's artifacts: a deployment is named by the artifact whose creation
 * code starts its init code, a call by the artifact whose deployed code is the callee's code, and the
 * function by the ABI's selector. Compiler metadata (the CBOR tail whose hash changes with any source
 * edit) is ignored, and so are bytes the artifact leaves zero: library addresses and immutables are
 * filled in at deployment. Small on purpose; a registry fed by every compilation can replace it.
 */
import { Interface, hexlify, keccak256 } from "ethers";
import type { Artifacts } from "hardhat/types";
import type { ContractNames } from "../../chain/contract-names";

interface Entry {
  contract: string;
  creation: Uint8Array;
  runtime: Uint8Array;
  abi?: Interface;
}

/** `0x…` bytecode with link placeholders (`__$…$__`, 40 characters) as zero bytes. */
export function bytecodeBytes(hex: string): Uint8Array {
  const clean = hex.replace(/^0x/, "").replace(/__\$[0-9a-fA-F]{34}\$__|__[^_]{36}__/g, "0".repeat(40));
  return Buffer.from(clean, "hex");
}

/** The code without solc's metadata: its last two bytes give the length of the CBOR map before them. */
export function withoutMetadata(code: Uint8Array): Uint8Array {
  if (code.length < 2) return code;
  const len = (code[code.length - 2] << 8) | code[code.length - 1];
  const start = code.length - 2 - len;
  // a CBOR map of 1–5 entries starts it (solc writes ipfs/bzzr, solc, experimental)
  if (len === 0 || start < 0 || code[start] < 0xa1 || code[start] > 0xa5) return code;
  return code.subarray(0, start);
}

/** True when `code` starts with `known`, except where `known` has zeros (links, immutables). */
function matchesPrefix(code: Uint8Array, known: Uint8Array): boolean {
  if (known.length === 0 || code.length < known.length) return false;
  for (let i = 0; i < known.length; i++) if (code[i] !== known[i] && known[i] !== 0) return false;
  return true;
}

/** What this needs of an artifact (Hardhat's artifact has these fields). */
export interface ArtifactLike {
  contractName: string;
  abi: readonly unknown[];
  bytecode: string;
  deployedBytecode: string;
}

export class ArtifactContractNames implements ContractNames {
  private readonly _entries: Entry[] = [];
  private readonly _byCode = new Map<string, Entry | null>();

  constructor(artifacts: Iterable<ArtifactLike>) {
    for (const a of artifacts) {
      const creation = withoutMetadata(bytecodeBytes(a.bytecode));
      if (creation.length === 0) continue; // interfaces and abstract contracts
      let abi: Interface | undefined;
      try {
        abi = new Interface(a.abi as never);
      } catch {
        abi = undefined; // an ABI ethers cannot read still names the contract
      }
      this._entries.push({ contract: a.contractName, creation, runtime: withoutMetadata(bytecodeBytes(a.deployedBytecode)), abi });
    }
  }

  /** Every artifact of the project (none compiled yet: names nothing). */
  static async load(artifacts: Artifacts): Promise<ArtifactContractNames> {
    const all: ArtifactLike[] = [];
    for (const name of await artifacts.getAllFullyQualifiedNames()) all.push(await artifacts.readArtifact(name));
    return new ArtifactContractNames(all);
  }

  describeDeploy(initCode: Uint8Array): { contract: string } | undefined {
    const e = this._entries.find((x) => matchesPrefix(initCode, x.creation));
    return e === undefined ? undefined : { contract: e.contract };
  }

  describeCall(code: Uint8Array, data: Uint8Array): { contract: string; function?: string } | undefined {
    const e = this._entryForCode(code);
    if (e === undefined) return undefined;
    const fn = data.length >= 4 ? e.abi?.getFunction(hexlify(data.subarray(0, 4))) : undefined;
    return fn === undefined || fn === null ? { contract: e.contract } : { contract: e.contract, function: fn.name };
  }

  /** The artifact of deployed code; remembered by the code's hash (a node calls the same contracts again and again). */
  private _entryForCode(code: Uint8Array): Entry | undefined {
    if (code.length === 0) return undefined;
    const key = keccak256(code);
    let e = this._byCode.get(key);
    if (e === undefined) {
      const body = withoutMetadata(code);
      e = this._entries.find((x) => x.runtime.length === body.length && matchesPrefix(body, x.runtime)) ?? null;
      this._byCode.set(key, e);
    }
    return e ?? undefined;
  }
}
