/** @deprecated Moved to ./precompile; kept for existing imports. */
export * from "./precompile";
