/** @deprecated Moved to ./hooks and ./contract-hooks; kept for existing imports. */
export * from "./hooks";
export * from "./contract-hooks";
export type { HookName } from "./types";
