/** @deprecated Moved to ./abci (begin/end blockers) and ./types (EpochHooks, TickRule); kept for existing imports. */
export { beginBlocker, endBlocker } from "./abci";
export type { EpochHooks, TickRule } from "./types";
