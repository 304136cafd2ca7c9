/**
 * The URL of the in-process network's config: never contacted (`.invalid` does not resolve). Its own
 * module so the config hook, which runs for every Hardhat command, loads nothing of the chain.
 */
export const IN_PROCESS_URL = "http://in-process.hardhat-epochs.invalid/";
