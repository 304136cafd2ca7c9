/**
 * The epochs queries at the profile's REST paths: Evmos's (`/evmos/epochs/v1/…`) or the Cosmos SDK's
 * (`/cosmos/epochs/v1beta1/…`), shaped and failing as each gateway answers, over the head's store.
 */
import type { Node } from "../../chain";
import { type EpochsModule, EPOCHS_MODULE, PROFILES, EpochNotFoundError, epochInfosJson, toJson } from "../../epochs";
import type { RestRouter } from "../../rpc/transport/rest-router";

/** The epochs queries at the profile's REST paths. */
export function mountEpochsRest(router: RestRouter, epochs: EpochsModule, node: Node): void {
  if (PROFILES[epochs.profile].sdkEpochs) mountSdkRest(router, epochs, node);
  else mountEvmosRest(router, epochs, node);
}

/**
 * GET /cosmos/epochs/v1beta1/epochs and /cosmos/epochs/v1beta1/current_epoch, as the Cosmos SDK's
 * gateway answers (x/epochs/keeper/grpc_query.go): every record without pagination; an empty
 * identifier is InvalidArgument (HTTP 400, code 3), an unknown one a plain error (HTTP 500, code 2).
 */
function mountSdkRest(router: RestRouter, epochs: EpochsModule, node: Node): void {
  const store = () => node.moduleStore(EPOCHS_MODULE);
  router.get("/cosmos/epochs/v1beta1/epochs", async () => ({ status: 200, body: { epochs: epochs.exportGenesis(await store()).epochs.map(toJson) } }));
  router.get("/cosmos/epochs/v1beta1/current_epoch", async (q) => {
    const id = q.get("identifier") ?? "";
    if (id === "") return { status: 400, body: { code: 3, message: "identifier is empty", details: [] } };
    const s = await store();
    try {
      return { status: 200, body: { current_epoch: epochs.currentEpoch(s, id).toString() } };
    } catch (err) {
      if (err instanceof EpochNotFoundError) return { status: 500, body: { code: 2, message: "not available identifier", details: [] } };
      throw err;
    }
  });
}

/** GET /evmos/epochs/v1/epochs and /evmos/epochs/v1/current_epoch, as Evmos's gateway answers. */
function mountEvmosRest(router: RestRouter, epochs: EpochsModule, node: Node): void {
  const store = () => node.moduleStore(EPOCHS_MODULE);
  router.get("/evmos/epochs/v1/epochs", async (q) => {
    const num = (k: string) => {
      const v = q.get(`pagination.${k}`);
      if (v === null || v === "") return undefined;
      if (!/^\d+$/.test(v)) throw new RangeError(`invalid pagination.${k}: ${v}`);
      return BigInt(v);
    };
    const flag = (k: string) => q.get(`pagination.${k}`) === "true";
    const s = await store();
    try {
      const key = q.get("pagination.key");
      return {
        status: 200,
        body: epochInfosJson(
          epochs.epochInfos(s, {
            key: key === null || key === "" ? undefined : new Uint8Array(Buffer.from(key, "base64")),
            offset: num("offset"),
            limit: num("limit"),
            countTotal: flag("count_total"),
            reverse: flag("reverse"),
          }),
        ),
      };
    } catch (err) {
      const bad = err instanceof RangeError;
      return { status: bad ? 400 : 500, body: { code: bad ? 3 : 13, message: (err as Error).message, details: [] } };
    }
  });
  router.get("/evmos/epochs/v1/current_epoch", async (q) => {
    const id = q.get("identifier") ?? "";
    const s = await store();
    try {
      return { status: 200, body: { current_epoch: epochs.currentEpoch(s, id).toString() } };
    } catch (err) {
      if (err instanceof EpochNotFoundError) return { status: 404, body: { code: 5, message: err.message, details: [] } };
      throw err;
    }
  });
}
