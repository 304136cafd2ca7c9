/** @deprecated Moved to ./types (data model) and ./codec (protobuf, proto-JSON); kept for existing imports. */
export * from "./types";
export * from "./codec";
