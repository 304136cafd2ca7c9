/**
 * Reading a Cosmos chain's epochs over its REST (gRPC-gateway) endpoint, at Evmos's paths
 * (`/evmos/epochs/v1/…`) or, where the chain has none, the Cosmos SDK's (`/cosmos/epochs/v1beta1/…`,
 * a cosmos/evm chain): used by `epochs:list --rest` / `epochs:current --rest` and by
 * `node --fork-rest` (the forked chain's epochs genesis).
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
  if (!res.ok) {
    const err = new HardhatPluginError(PLUGIN_NAME, `${url} answered HTTP ${res.status}: ${body?.message ?? "no message"}`);
    answers.set(err, { status: res.status, message: body?.message });
    throw err;
  }
  return body as T;
}

/**
 * The HTTP status and the gateway's message behind a refusal restGet threw (a WeakMap: Hardhat's
 * error class resets the prototype of subclasses, so a subclass could not be told by instanceof).
 */
const answers = new WeakMap<object, { status: number; message?: string }>();

/**
 * The chain has no such route: the gateway's 501 "Not Implemented", or a bare 404 "Not Found" (not
 * a query's own 404, e.g. Evmos's "epoch info not found: ID").
 */
function routeMissing(err: unknown): boolean {
  const answer = typeof err === "object" && err !== null ? answers.get(err) : undefined;
  return answer !== undefined && (answer.status === 501 || (answer.status === 404 && (answer.message === undefined || /^not found$/i.test(answer.message))));
}

/** Evmos's path first; on a chain without it (404/501), the Cosmos SDK's. */
async function eitherForm<T>(evmos: () => Promise<T>, sdk: () => Promise<T>): Promise<T> {
  try {
    return await evmos();
  } catch (err) {
    if (!routeMissing(err)) throw err;
    return sdk();
  }
}

/** The current epoch of `identifier` on an Evmos chain or a chain with the Cosmos SDK's x/epochs. */
export async function restCurrentEpoch(base: string, identifier: string): Promise<bigint> {
  const q = `?identifier=${encodeURIComponent(identifier)}`;
  const res = await eitherForm(
    () => restGet<{ current_epoch?: string }>(base, `/evmos/epochs/v1/current_epoch${q}`),
    () => restGet<{ current_epoch?: string }>(base, `/cosmos/epochs/v1beta1/current_epoch${q}`),
  );
  if (typeof res?.current_epoch !== "string" || !/^-?\d+$/.test(res.current_epoch)) throw new HardhatPluginError(PLUGIN_NAME, `${base} answered without a "current_epoch" number`);
  return BigInt(res.current_epoch);
}

/** Every EpochInfo of the chain (Evmos's pages, or the SDK's one answer), at `height` when given. */
export async function restEpochs(base: string, height?: bigint): Promise<EpochInfo[]> {
  return eitherForm(
    () => evmosEpochs(base, height),
    async () => {
      const res: { epochs?: EpochInfoJson[] } = await restGet(base, "/cosmos/epochs/v1beta1/epochs", height);
      if (!Array.isArray(res?.epochs)) throw new HardhatPluginError(PLUGIN_NAME, `${base}/cosmos/epochs/v1beta1/epochs answered without an "epochs" list`);
      return res.epochs.map((e, i) => epochsModule().fromJson(e, `epochs[${i}]`));
    },
  );
}

async function evmosEpochs(base: string, height?: bigint): Promise<EpochInfo[]> {
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
