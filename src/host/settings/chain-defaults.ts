/** Evmos's local chain id (`evmos_9000-1`): the chain id of both hosts' chain unless the user sets one. */
export const DEFAULT_CHAIN_ID = 9000;
