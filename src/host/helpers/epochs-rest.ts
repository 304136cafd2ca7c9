/**
 * Reading a Cosmos chain's epochs over its REST (gRPC-gateway) endpoint, at Evmos's paths
 * (`/evmos/epochs/v1/…`) or, where the chain has none, the Cosmos SDK's (`/cosmos/epochs/v1beta1/…`,
 * a cosmos/evm chain): used by `epochs:list --rest` / `epochs:current --rest` (both Hardhats) and by
 * `node --fork-rest` (the forked chain's epochs genesis). No Hardhat import: each host shows an
 * EpochsRestError as its own plugin error.
 */
import { UserError } from "../../utils/user-error";
import type { EpochInfo, EpochInfoJson } from "../../epochs";
import { epochsModule } from "../lazy";

/** A REST endpoint that cannot be reached or that refused; `status` and `serverMessage` when it answered. */
class EpochsRestError extends UserError {
  constructor(
    message: string,
    readonly status?: number,
    readonly serverMessage?: string,
  ) {
    super(message);
  }
}

/**
 * GET `path` on the REST endpoint `base`. `height` asks for the state at that block (the gateway's
 * `x-cosmos-block-height` header; a node that pruned it answers an error).
 */
async function restGet<T>(base: string, path: string, height?: bigint): Promise<T> {
  const url = `${base.replace(/\/+$/, "")}${path}`;
  let res: Response;
  try {
    res = await fetch(url, height !== undefined ? { headers: { "x-cosmos-block-height": height.toString() } } : undefined);
  } catch (err) {
    throw new EpochsRestError(`cannot reach ${url}: ${(err as Error).message}`);
  }
  const body = (await res.json().catch(() => undefined)) as { message?: string } | undefined;
  if (!res.ok) throw new EpochsRestError(`${url} answered HTTP ${res.status}: ${body?.message ?? "no message"}`, res.status, body?.message);
  return body as T;
}

/**
 * The chain has no such route: the gateway's 501 "Not Implemented", or a bare 404 "Not Found" (not
 * a query's own 404, e.g. Evmos's "epoch info not found: ID").
 */
function routeMissing(err: unknown): boolean {
  return err instanceof EpochsRestError && (err.status === 501 || (err.status === 404 && (err.serverMessage === undefined || /^not found$/i.test(err.serverMessage))));
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
  if (typeof res?.current_epoch !== "string" || !/^-?\d+$/.test(res.current_epoch)) throw new EpochsRestError(`${base} answered without a "current_epoch" number`);
  return BigInt(res.current_epoch);
}

/** Every EpochInfo of the chain (Evmos's pages, or the SDK's one answer), at `height` when given. */
export async function restEpochs(base: string, height?: bigint): Promise<EpochInfo[]> {
  return eitherForm(
    () => evmosEpochs(base, height),
    async () => {
      const res: { epochs?: EpochInfoJson[] } = await restGet(base, "/cosmos/epochs/v1beta1/epochs", height);
      if (!Array.isArray(res?.epochs)) throw new EpochsRestError(`${base}/cosmos/epochs/v1beta1/epochs answered without an "epochs" list`);
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
    if (!Array.isArray(res?.epochs)) throw new EpochsRestError(`${base}/evmos/epochs/v1/epochs answered without an "epochs" list`);
    const offset = out.length;
    out.push(...res.epochs.map((e, i) => epochsModule().fromJson(e, `epochs[${offset + i}]`)));
    key = res.pagination?.next_key ?? null;
    if (key === null) break;
  }
  return out;
}
