/** The eth namespace, grouped by concern. Filters and subscriptions are added by the server layer. */
import type { RpcDeps } from "../../deps";
import type { MethodSpec } from "../../method";
import { accessListMethods } from "./access-list";
import { blockMethods } from "./blocks";
import { extensionMethods } from "./extensions";
import { feeMethods } from "./fees";
import { logMethods } from "./logs";
import { miscMethods } from "./misc";
import { resendMethods } from "./resend";
import { simulateMethods } from "./simulate";
import { stateMethods } from "./state";
import { transactionMethods } from "./transactions";

export function ethMethods(deps: RpcDeps): MethodSpec[] {
  return [
    ...stateMethods(deps),
    ...blockMethods(deps),
    ...transactionMethods(deps),
    ...feeMethods(deps),
    ...logMethods(deps),
    ...miscMethods(deps),
    ...extensionMethods(deps),
    ...accessListMethods(deps),
    ...resendMethods(deps),
    ...simulateMethods(deps),
  ];
}
