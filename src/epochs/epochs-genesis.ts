/** @deprecated Moved to ./genesis; kept for existing imports. */
export * from "./genesis";
