/**
 * Reading a Cosmos chain's epochs over its REST (gRPC-gateway) endpoint, Evmos's paths: used by
 * `epochs:list --rest` / `epochs:current --rest` and by `node --fork-rest` (the forked chain's epochs
 * genesis).
 */
import { HardhatPluginError } from "hardhat/plugins";
import type { EpochInfo, EpochInfoJson } from "../epochs";
import { epochsModule } from "../host/lazy";
import { PLUGIN_NAME } from "./chain-config";

/**
 * GET `path` on the REST endpoint `base`. `height` asks for the state at that block (the gateway's
 * `x-cosmos-block-height` header; a node that pruned it answers an error).
 */
export async function restGet<T>(base: string, path: string, height?: bigint): Promise<T> {
  const url = `${base.replace(/\/+$/, "")}${path}`;
  let res: Response;
  try {
    res = await fetch(url, height !== undefined ? { headers: { "x-cosmos-block-height": height.toString() } } : undefined);
  } catch (err) {
    throw new HardhatPluginError(PLUGIN_NAME, `cannot reach ${url}: ${(err as Error).message}`);
  }
  const body = (await res.json().catch(() => undefined)) as { message?: string } | undefined;
  if (!res.ok) throw new HardhatPluginError(PLUGIN_NAME, `${url} answered HTTP ${res.status}: ${body?.message ?? "no message"}`);
  return body as T;
}

/** Every EpochInfo of the chain (all pages), at `height` when given. */
export async function restEpochs(base: string, height?: bigint): Promise<EpochInfo[]> {
  const out: EpochInfo[] = [];
  let key: string | null = null;
  for (let page = 0; page < 1000; page++) {
    const q: string = key === null ? "" : `?pagination.key=${encodeURIComponent(key)}`;
    const res: { epochs?: EpochInfoJson[]; pagination?: { next_key: string | null } } = await restGet(base, `/evmos/epochs/v1/epochs${q}`, height);
    if (!Array.isArray(res?.epochs)) throw new HardhatPluginError(PLUGIN_NAME, `${base}/evmos/epochs/v1/epochs answered without an "epochs" list`);
    const offset = out.length;
    out.push(...res.epochs.map((e, i) => epochsModule().fromJson(e, `epochs[${offset + i}]`)));
    key = res.pagination?.next_key ?? null;
    if (key === null) break;
  }
  return out;
}
