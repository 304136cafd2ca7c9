/**
 * eth_createAccessList: the access list a transaction needs, found by executing it (geth's way):
 * run it with the list found so far, record the addresses and slots it touches, and repeat until the
 * list stops changing. Runs in an execution context at the block (never on the live chain).
 */
import { Address, bigIntToUnpaddedBytes, bytesToHex, createZeroAddress, generateAddress } from "@ethereumjs/util";
import { describeFailure } from "../../../chain";
import type { RpcDeps } from "../../deps";
import { ServerError } from "../../errors";
import { q } from "../../format";
import { method } from "../../method";
import { txRequest } from "../../objects";
import { blockId } from "../../params";
import { requireHeight } from "../../resolve";

type Entry = { address: Uint8Array; storageKeys: Uint8Array[] };

const toHex = (b: Uint8Array) => bytesToHex(b).toLowerCase();
const fromHex = (h: string) => new Uint8Array(Buffer.from(h.replace(/^0x/, ""), "hex"));

/** A stable key of a list, for "has it stopped changing". */
function keyOf(list: Entry[]): string {
  return list.map((e) => `${toHex(e.address)}:${e.storageKeys.map(toHex).join(",")}`).join(";");
}

/** How many times the list may grow before we give up (each run can only add entries). */
const MAX_ROUNDS = 64;

export function accessListMethods(deps: RpcDeps) {
  const { node } = deps;
  return [
    method({
      name: "eth_createAccessList",
      access: "read",
      params: [txRequest, blockId.opt()],
      doc: "The EIP-2930 access list of a transaction (addresses and storage slots it touches, without its sender, its recipient and the precompiles unless their storage is read) and the gas it uses with that list, from real executions at a block (default latest). A failing execution still answers, with `error`.",
      async handler([req, block]) {
        const n = await requireHeight(node, block);
        const ctx = await node.contextAt(n, { timeoutMs: deps.settings.evmTimeoutMs });
        try {
          const from = new Address(req.from ?? createZeroAddress().bytes);
          const nonce = req.nonce ?? (await ctx.vm.stateManager.getAccount(from))?.nonce ?? 0n;
          const to = req.to ?? generateAddress(from.bytes, bigIntToUnpaddedBytes(nonce));
          const excluded = new Set<string>([toHex(from.bytes), toHex(to)]);
          for (const p of ctx.vm.evm.precompiles.keys()) excluded.add(`0x${p.toLowerCase()}`);
          // as geth's tracer: the excluded addresses are not listed for being touched, only for their storage slots
          const clean = (list: Entry[]): Entry[] => list.filter((e) => e.storageKeys.length > 0 || !excluded.has(toHex(e.address)));
          let list = clean(req.accessList ?? []);
          for (let round = 0; round < MAX_ROUNDS; round++) {
            const r = await node.calls.runInContext(ctx, { ...req, from: from.bytes, nonce, accessList: list });
            const traced = clean((r.accessList ?? []).map((e) => ({ address: fromHex(e.address), storageKeys: e.storageKeys.map(fromHex) })));
            if (keyOf(traced) === keyOf(list)) {
              const out: Record<string, unknown> = {
                accessList: list.map((e) => ({ address: toHex(e.address), storageKeys: e.storageKeys.map(toHex) })),
                gasUsed: q(r.totalGasSpent),
              };
              const ex = r.execResult.exceptionError;
              if (ex !== undefined) out.error = describeFailure(ex.error, r.execResult.returnValue);
              return out;
            }
            list = traced;
          }
          throw new ServerError(`access list did not settle after ${MAX_ROUNDS} executions`);
        } finally {
          ctx.release();
        }
      },
    }),
  ];
}
