/** @deprecated Moved to ./index and ./query; kept for existing imports. */
export { EPOCHS_MODULE, EpochsModule, type EpochsOptions, type EpochsPrecompile, createEpochsModule } from "./index";
export { EpochNotFoundError, type PageRequest, type PageResult } from "./query";
