/**
 * geth's prestateTracer: every account the transaction touches, as it was when first touched
 * (balance, nonce, code, the storage slots read or written); with `diffMode`, `{post, pre}` holding
 * only what changed. `disableCode` / `disableStorage` leave those out.
 */
import { Address, bytesToHex, generateAddress, generateAddress2 } from "@ethereumjs/util";
import { readMemory, word } from "./attach";
import type { OpStep, Tracer, TxEnd, TxEnv } from "./types";

export interface PrestateConfig {
  diffMode?: boolean;
  disableCode?: boolean;
  disableStorage?: boolean;
}

interface Account {
  balance: bigint;
  nonce: bigint;
  code: Uint8Array;
  storage: Map<string, string>;
  empty: boolean;
}

const ZERO_WORD = `0x${"0".repeat(64)}`;

export class PrestateTracer implements Tracer {
  readonly wantsSteps = true;
  private readonly _pre = new Map<string, Account>();
  private readonly _post = new Map<string, Partial<Account>>();
  private readonly _created = new Set<string>();
  private _env!: TxEnv;
  private _reason: Error | undefined;

  constructor(private readonly _cfg: PrestateConfig = {}) {}

  async onTxStart(env: TxEnv): Promise<void> {
    this._env = env;
    await this._lookupAccount(env.from);
    await this._lookupAccount(env.to);
    await this._lookupAccount(new Address(env.block.header.coinbase.bytes));
    if (env.isCreate) this._created.add(env.to.toString());
    const auths = (env.tx as { authorizationList?: Array<[Uint8Array, Uint8Array, Uint8Array, ...unknown[]]> }).authorizationList;
    if (auths !== undefined) for (const a of auths) await this._lookupAccount(new Address(a[1]));
  }

  onOpcode(s: OpStep): Promise<void> | void {
    const st = s.stack;
    const n = st.length;
    switch (s.op) {
      case 0x54:
      case 0x55:
        if (n >= 1) return this._lookupStorage(s.address, word(st[n - 1]));
        return;
      case 0x3b:
      case 0x3c:
      case 0x3f:
      case 0x31:
      case 0xff:
        if (n >= 1) return this._lookupAccount(addr(st[n - 1]));
        return;
      case 0xf1:
      case 0xf2:
      case 0xf4:
      case 0xfa:
        if (n >= 2) return this._lookupAccount(addr(st[n - 2]));
        return;
      case 0xf0:
        return this._create(s, undefined);
      case 0xf5:
        if (n >= 4) return this._create(s, word(st[n - 4]));
        return;
    }
  }

  async onTxEnd(end: TxEnd): Promise<void> {
    if (this._cfg.diffMode === true) await this._diff(end);
    for (const a of this._created) if (this._pre.get(a)?.empty === true) this._pre.delete(a);
  }

  stop(reason: Error): void {
    this._reason = reason;
  }

  result(): unknown {
    if (this._reason !== undefined) throw this._reason;
    const pre = this._render(this._pre);
    if (this._cfg.diffMode !== true) return pre;
    return { post: this._render(this._post), pre };
  }

  private _render(m: Map<string, Partial<Account>>): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const [a, acc] of m) {
      const o: Record<string, unknown> = {};
      if (acc.balance !== undefined) o.balance = `0x${acc.balance.toString(16)}`;
      if (acc.code !== undefined && acc.code.length > 0 && this._cfg.disableCode !== true) o.code = bytesToHex(acc.code);
      if (acc.nonce !== undefined && acc.nonce !== 0n) o.nonce = Number(acc.nonce);
      if (acc.storage !== undefined && acc.storage.size > 0 && this._cfg.disableStorage !== true) o.storage = Object.fromEntries(acc.storage);
      out[a] = o;
    }
    return out;
  }

  private async _create(s: OpStep, salt: Uint8Array | undefined): Promise<void> {
    const sm = this._env.vm.stateManager;
    const n = s.stack.length;
    if (n < 3) return;
    let created: Uint8Array;
    if (salt === undefined) {
      const nonce = (await sm.getAccount(s.address))?.nonce ?? 0n;
      created = generateAddress(s.address.bytes, bigToBytes(nonce));
    } else {
      const code = readMemory(s.memory, Number(s.stack[n - 2]), Number(s.stack[n - 3]));
      created = generateAddress2(s.address.bytes, salt, code);
    }
    const a = new Address(created);
    await this._lookupAccount(a);
    this._created.add(a.toString());
  }

  private async _lookupAccount(a: Address): Promise<void> {
    const key = a.toString();
    if (this._pre.has(key)) return;
    const sm = this._env.vm.stateManager;
    const acc = await sm.getAccount(a);
    this._pre.set(key, {
      balance: acc?.balance ?? 0n,
      nonce: acc?.nonce ?? 0n,
      code: acc === undefined ? new Uint8Array() : await sm.getCode(a),
      storage: new Map(),
      empty: acc === undefined,
    });
  }

  private async _lookupStorage(a: Address, slot: Uint8Array): Promise<void> {
    await this._lookupAccount(a);
    const acc = this._pre.get(a.toString()) as Account;
    const k = bytesToHex(slot);
    if (acc.storage.has(k)) return;
    acc.storage.set(k, bytesToHex(pad32(await this._env.vm.stateManager.getStorage(a, slot))));
  }

  private async _diff(end: TxEnd): Promise<void> {
    const sm = this._env.vm.stateManager;
    const deleted = new Set<string>();
    // a map of self-destructed address to beneficiary
    const destructed = (end.result?.execResult as { selfdestruct?: Map<string, string> } | undefined)?.selfdestruct;
    if (destructed !== undefined) for (const d of destructed.keys()) deleted.add(d.toLowerCase());
    for (const [key, pre] of [...this._pre]) {
      if (deleted.has(key)) continue;
      const a = new Address(Buffer.from(key.slice(2), "hex"));
      const acc = await sm.getAccount(a);
      const post: Partial<Account> = {};
      let modified = false;
      const balance = acc?.balance ?? 0n;
      const nonce = acc?.nonce ?? 0n;
      const code = acc === undefined ? new Uint8Array() : await sm.getCode(a);
      if (balance !== pre.balance) {
        modified = true;
        post.balance = balance;
      }
      if (nonce !== pre.nonce) {
        modified = true;
        post.nonce = nonce;
      }
      if (Buffer.compare(Buffer.from(code), Buffer.from(pre.code)) !== 0) {
        modified = true;
        post.code = code;
      }
      const postStorage = new Map<string, string>();
      for (const [slot, val] of [...pre.storage]) {
        if (val === ZERO_WORD) pre.storage.delete(slot);
        const now = bytesToHex(pad32(await sm.getStorage(a, Buffer.from(slot.slice(2), "hex"))));
        if (now === val) pre.storage.delete(slot);
        else {
          modified = true;
          if (now !== ZERO_WORD) postStorage.set(slot, now);
        }
      }
      post.storage = postStorage;
      if (modified) this._post.set(key, post);
      else this._pre.delete(key);
    }
  }
}

function addr(v: bigint): Address {
  return new Address(word(v).subarray(12));
}

function pad32(v: Uint8Array): Uint8Array {
  if (v.length === 32) return v;
  const out = new Uint8Array(32);
  out.set(v, 32 - v.length);
  return out;
}

function bigToBytes(n: bigint): Uint8Array {
  if (n === 0n) return new Uint8Array();
  const h = n.toString(16);
  return new Uint8Array(Buffer.from(h.length % 2 === 0 ? h : `0${h}`, "hex"));
}
