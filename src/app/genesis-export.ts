/**
 * The chain at its head as a Cosmos genesis.json a node starts from again (`epochs_exportGenesis`,
 * the `epochs:export-genesis` tasks; docs/node-config.md): the epochs timers, the Cosmos modules'
 * sections, every account's native balance, nonce, code and storage (x/bank, x/auth, x/vm), the
 * contracts registered as epoch hooks, and the chain's own Cosmos chain id. The genesis time is the
 * head's time, so the new chain's first block comes where this one is.
 *
 * What a module's section carries stays out of the EVM accounts: the module stores (accounts with
 * storage and no code) and the modules' precompiles and pools (src/cosmos/index.ts
 * `appStateGenesis`). The hook registrations live among the epochs module's records in its
 * precompile's account, so they travel as that account's hook slots alone.
 */
import { bytesToHex, hexToBytes } from "@ethereumjs/util";
import type { Node } from "../chain";
import type { CosmosModules, ExportedAccount, Json } from "../cosmos";
import { EPOCHS_MODULE, EPOCHS_PRECOMPILE_BYTES, EpochsKeeper, cosmosGenesisDoc, hookSlots, register, registeredHooks, seconds } from "../epochs";

export async function exportChainGenesis(node: Node, cosmos: CosmosModules): Promise<Json> {
  const head = node.head.header;
  const dump = await node.dumpState();
  const accounts: ExportedAccount[] = [];
  for (const [address, a] of Object.entries(dump.accounts)) {
    const code = hexToBytes(a.code as `0x${string}`);
    const storage = Object.entries(a.storage).map(([k, v]): [Uint8Array, Uint8Array] => [hexToBytes(k as `0x${string}`), hexToBytes(v as `0x${string}`)]);
    // an account with storage and no code is a module's store: its section carries it
    if (code.length === 0 && storage.length > 0) continue;
    accounts.push({ address, nonce: BigInt(a.nonce), balance: BigInt(a.balance), code, storage });
  }
  const sm = await node.stateAt(head.number);
  const hooks = await registeredHooks(hookSlots(sm));
  if (hooks.length > 0) {
    // the registry's slots as the precompile's own register() lays them out, in the same order
    const slots = new Map<string, [Uint8Array, Uint8Array]>();
    const io = { get: async (k: Uint8Array) => slots.get(bytesToHex(k))?.[1] ?? new Uint8Array(), put: async (k: Uint8Array, v: Uint8Array) => void slots.set(bytesToHex(k), [k, v]) };
    for (const h of hooks) await register(io, h);
    const at = accounts.findIndex((a) => a.address.toLowerCase() === bytesToHex(EPOCHS_PRECOMPILE_BYTES));
    if (at >= 0) accounts.splice(at, 1);
    accounts.push({ address: bytesToHex(EPOCHS_PRECOMPILE_BYTES), nonce: 0n, balance: 0n, code: new Uint8Array(), storage: [...slots.values()] });
  }
  const appState = await cosmos.appStateGenesis(cosmos.queries(sm, { number: head.number, timestamp: head.timestamp }), accounts);
  const epochs = new EpochsKeeper(await node.moduleStore(EPOCHS_MODULE, head.number)).readEpochInfos();
  return cosmosGenesisDoc({ genesisTime: seconds(head.timestamp), chainId: node.config.chainId, cosmosChainId: node.config.cosmosChainId, epochs, appState }) as Json;
}
