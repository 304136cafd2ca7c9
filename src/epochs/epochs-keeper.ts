/** @deprecated Moved to ./keeper; kept for existing imports. */
export * from "./keeper";
