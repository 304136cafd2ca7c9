/**
 * epochs_*: the epochs queries (shaped like the Cosmos gRPC-gateway JSON), the begin/end-block
 * events of a block, and hook registration; and the `epochs` WebSocket subscription. The REST routes
 * at the profile's paths are src/app/rest/epochs.ts.
 */
import { type EpochsModule, type PageRequest, EPOCHS_MODULE, EpochNotFoundError, EpochsKeeper, epochInfosJson, hookSlots, register, registeredHooks, typedEventTimers, unregister } from "../../epochs";
import type { ModuleEvent } from "../../chain";
import { eventNotifications, formatBlockEvents } from "../block-events";
import type { Json } from "../format";
import type { RpcDeps } from "../deps";
import { InvalidParamsError, ServerError } from "../errors";
import type { SubscriptionManager } from "../filters/subscription-manager";
import { method } from "../method";
import { ParamError, address, blockNumberOrTag, codec, jsonType, numberOrQuantity, string } from "../params";
import { resolveBlock } from "../resolve";
import { getAddress } from "ethers/address";
import { Address } from "@ethereumjs/util";

const uintField = (v: unknown, name: string): bigint => {
  if (typeof v === "number" && Number.isSafeInteger(v) && v >= 0) return BigInt(v);
  if (typeof v === "string" && /^\d+$/.test(v)) return BigInt(v);
  throw new ParamError(`pagination.${name}: expected a non-negative integer`);
};

/** The REST pagination fields as an object: key (base64), offset, limit, count_total, reverse. */
const pagination = codec((v): PageRequest => {
  if (typeof v !== "object" || v === null || Array.isArray(v)) throw new ParamError(`cannot unmarshal ${jsonType(v)} into pagination`);
  const o = v as Record<string, unknown>;
  const bool = (k: string) => {
    if (o[k] === undefined) return undefined;
    if (typeof o[k] !== "boolean") throw new ParamError(`pagination.${k}: expected true or false`);
    return o[k] as boolean;
  };
  if (o.key !== undefined && typeof o.key !== "string") throw new ParamError("pagination.key: expected base64 text");
  return {
    key: typeof o.key === "string" ? new Uint8Array(Buffer.from(o.key, "base64")) : undefined,
    offset: o.offset === undefined ? undefined : uintField(o.offset, "offset"),
    limit: o.limit === undefined ? undefined : uintField(o.limit, "limit"),
    countTotal: bool("count_total"),
    reverse: bool("reverse"),
  };
});

/** Most epochs one epochs_advance moves a timer: each is one to a few blocks, mined while other requests wait. */
const MAX_ADVANCE = 1000;

/** Blocks one epoch may take before epochs_advance gives up (a timer another rule or a hook keeps from moving). */
const MAX_BLOCKS_PER_EPOCH = 16;

/** What the app layer lends the namespace: the whole chain as a genesis.json (src/app/genesis-export.ts). */
interface EpochsExports {
  genesis(): Promise<Json>;
}

/** `lent`: not named `exports`, which in the compiled CommonJS is this module's own exports object. */
export function epochsMethods({ node, contracts }: RpcDeps, epochs: EpochsModule, lent?: EpochsExports) {
  // the store at the head of the chain the node has now (hardhat_reset replaces it)
  const store = () => node.moduleStore(EPOCHS_MODULE);
  /** Registration changes the live state (as a transaction to the precompile would), all or nothing. */
  const change = async (fn: (slots: ReturnType<typeof hookSlots>) => Promise<boolean>): Promise<boolean> => {
    let out = false;
    await node.modifyState(async (sm) => {
      out = await fn(hookSlots(sm));
    });
    return out;
  };
  const hex = (a: Uint8Array) => `0x${Buffer.from(a).toString("hex")}`;
  /** A timer's current epoch at the head; -32000 `epoch info not found: ID` for an unknown one. */
  const currentEpoch = async (id: string): Promise<bigint> => {
    const s = await store();
    try {
      return epochs.currentEpoch(s, id);
    } catch (err) {
      if (err instanceof EpochNotFoundError) throw new ServerError(err.message);
      throw err;
    }
  };
  return [
    method({
      name: "epochs_epochInfos",
      access: "read",
      params: [pagination.opt()],
      doc: "Every EpochInfo in identifier-byte order, with Cosmos pagination: {epochs, pagination: {next_key, total}}.",
      handler: async ([page]) => {
        const s = await store();
        try {
          return epochInfosJson(epochs.epochInfos(s, page));
        } catch (err) {
          throw new InvalidParamsError(`invalid argument 0: ${(err as Error).message}`);
        }
      },
    }),
    method({
      name: "epochs_currentEpoch",
      access: "read",
      params: [string],
      doc: 'The current epoch number of a timer: {"current_epoch": "N"}; -32000 `epoch info not found: ID` for an unknown one.',
      handler: async ([id]) => ({ current_epoch: (await currentEpoch(id)).toString() }),
    }),
    method({
      name: "epochs_advance",
      access: "dev",
      params: [string, numberOrQuantity.opt()],
      doc: `Moves the clock and mines until the timer's current epoch ended and the next started (hooks called), \`count\` times (default 1, at most ${MAX_ADVANCE}); answers {"current_epoch": "N"}. The blocks take the pool's transactions, as evm_mine's do.`,
      handler: async ([id, n]) => {
        const count = n ?? 1n;
        if (count < 1n || count > BigInt(MAX_ADVANCE)) throw new InvalidParamsError(`invalid argument 1: count must be 1 to ${MAX_ADVANCE}, got ${count}`);
        let current = await currentEpoch(id);
        for (let step = 0n; step < count; step++) {
          const target = current + 1n;
          for (let blocks = 0; current < target; blocks++) {
            if (blocks >= MAX_BLOCKS_PER_EPOCH) throw new ServerError(`epoch "${id}" did not advance after ${blocks} blocks`);
            // at the move's time, or just after the head when another block already passed it
            await node.mineBlock({ notBefore: epochs.nextMoveTime(await store(), id) });
            current = await currentEpoch(id);
          }
        }
        return { current_epoch: current.toString() };
      },
    }),
    ...(lent !== undefined
      ? [
          method({
            name: "epochs_exportGenesis",
            // the whole state in memory, as hardhat_dumpState: the token
            access: "private",
            params: [],
            doc: "The chain at its head as a Cosmos genesis.json a node starts from again: the epochs, the Cosmos modules' sections, every account's native balance, nonce, code and storage (bank, auth, evm), the hook registrations and the chain's Cosmos chain id; genesis_time is the head's time.",
            handler: () => lent.genesis(),
          }),
        ]
      : []),
    method({
      name: "epochs_blockEvents",
      access: "read",
      params: [blockNumberOrTag],
      doc: "The begin-block and end-block events of a block (epoch_start, epoch_end, hook calls and their logs); null for an unknown block.",
      handler: async ([b]) => {
        const block = await resolveBlock(node, b);
        if (block === undefined) return null;
        const events = await node.store.getEvents(block.header.number);
        return formatBlockEvents(block, events, await typedTimers(node, block.header.number, events));
      },
    }),
    method({
      name: "epochs_registerHooks",
      access: "dev",
      params: [address],
      doc: "Registers a contract implementing IEpochHooks (as IEpochs.registerHooks() would for msg.sender); false when already registered. EVM state: evm_revert undoes it.",
      handler: async ([a]) => change((slots) => register(slots, a)),
    }),
    method({
      name: "epochs_unregisterHooks",
      access: "dev",
      params: [address],
      doc: "Unregisters a hook contract; false when it was not registered.",
      handler: async ([a]) => change((slots) => unregister(slots, a)),
    }),
    method({
      name: "epochs_hooks",
      access: "read",
      params: [],
      doc: "The registered hook contracts, in call order, checksummed (EIP-55) as ethers gives a contract's address.",
      handler: async () => (await registeredHooks(hookSlots(await node.stateAt(node.headNumber)))).map((a) => getAddress(hex(a))),
    }),
    method({
      name: "epochs_hookContracts",
      access: "read",
      params: [],
      doc: "The registered hook contracts, in call order, each `{address, name}`: its checksummed address, and the name of its contract when the project's compilations know its code (as the node's log names contracts), else null.",
      async handler() {
        const sm = await node.stateAt(node.headNumber);
        return Promise.all(
          (await registeredHooks(hookSlots(sm))).map(async (a) => {
            const address = new Address(a);
            return { address: getAddress(hex(a)), name: contracts.describeCall(await sm.getCode(address), new Uint8Array())?.contract ?? null };
          }),
        );
      },
    }),
  ];
}

/** The timers behind a block's typed epoch events (none unless it has some), from the epochs store after it. */
async function typedTimers(node: RpcDeps["node"], height: bigint, events: { begin: ModuleEvent[] }): Promise<string[]> {
  if (!events.begin.some((e) => e.type.startsWith("cosmos.epochs."))) return [];
  try {
    return typedEventTimers(new EpochsKeeper(await node.moduleStore(EPOCHS_MODULE, height)).readEpochInfos(), height);
  } catch {
    return []; // the block is gone (a rewind or reset): the events go without names
  }
}

/** The `epochs` subscription: one notification per begin/end-block event. */
export function registerEpochsSubscription(deps: RpcDeps, subscriptions: SubscriptionManager): void {
  subscriptions.registerKind("epochs", {
    parse: () => undefined,
    start: (_arg, send, feed) => {
      // one block's notifications after the last's, though naming a typed event's timer reads the store
      let previous = Promise.resolve();
      return feed.onBlock(({ block, events }) => {
        previous = previous.then(async () => {
          for (const n of eventNotifications(block, events, await typedTimers(deps.node, block.header.number, events))) send(n);
        });
      });
    },
  });
}
