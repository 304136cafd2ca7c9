/**
 * A node started in-process from a genesis.json shaped as cosmos/evm's local_node.sh leaves it
 * (scripts/local-node-genesis.ts), in a fresh `--home`, the way `hardhat node --home` starts one;
 * `edit` changes the genesis first. The test config's accounts are funded on top.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { localNodeGenesis } from "../../scripts/local-node-genesis";
import { homeRuntimeOptions, openHome } from "../../src/host/node/home";
import type { RuntimeOptions } from "../../src/app/runtime";
import { type Harness, inProcess, testChainConfig } from "./harness";

export interface LocalNode {
  h: Harness;
  dir: string;
}

/** `serve`: how the node is reached (in-process by default; serveHttp for its REST routes too). */
export async function localNode(edit: (genesis: Record<string, unknown>) => void = () => undefined, serve: (opts: Partial<RuntimeOptions>) => Promise<Harness> = inProcess): Promise<LocalNode> {
  const genesis = localNodeGenesis("2024-03-01T12:00:00Z");
  edit(genesis);
  return nodeFromGenesis(genesis, serve);
}

/** A node started from `genesis` (cosmos/evm's profile, EVM chain id 262144) in a fresh `--home`. */
export async function nodeFromGenesis(genesis: unknown, serve: (opts: Partial<RuntimeOptions>) => Promise<Harness> = inProcess): Promise<LocalNode> {
  const dir = mkdtempSync(path.join(tmpdir(), "local-node-"));
  const init = { chainId: 262144n, genesisTime: 1_709_294_400n, epochs: () => [], namespaces: ["eth", "cosmos", "epochs", "evm", "hardhat", "miner"], profile: "cosmos-evm" as const };
  const home = openHome(dir, init);
  writeFileSync(home.paths.genesis, JSON.stringify(genesis));
  const options = await homeRuntimeOptions(openHome(dir, init), { chain: { ...testChainConfig(), chainId: 262144n }, epochs: { profile: "cosmos-evm" }, cosmos: {} });
  const h = await serve({ ...options, epochs: { ...options.epochs, profile: "cosmos-evm" } });
  return { h, dir };
}

export async function closeLocalNode(c: LocalNode | undefined): Promise<void> {
  if (c === undefined) return;
  await c.h.close();
  rmSync(c.dir, { recursive: true, force: true });
}
