/**
 * Methods the spec names that have no meaning on a single-node proof-of-stake dev chain. Each
 * answers -32000 with the reason, never "method not found" (docs/json-rpc.md, "Unsupported methods").
 */
import { type MethodSpec, unsupported } from "../method";

const WHISPER = "Whisper (shh) was removed from Ethereum clients";
const LES = "a dev node has no light-client server";

export function unsupportedMethods(): MethodSpec[] {
  const shh = ["post", "version", "newIdentity", "hasIdentity", "newGroup", "addToGroup", "newFilter", "uninstallFilter", "getFilterChanges", "getMessages"];
  const les = ["serverInfo", "clientInfo", "priorityClientInfo", "addBalance", "setClientParams", "setDefaultParams", "latestCheckpoint", "getCheckpoint", "getCheckpointContractAddress"];
  return [...shh.map((m) => unsupported(`shh_${m}`, WHISPER)), ...les.map((m) => unsupported(`les_${m}`, LES))];
}
