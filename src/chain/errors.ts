/** Errors the chain answers with; the RPC layer turns them into JSON-RPC errors (src/rpc/dispatcher.ts). */

/** A rejected transaction or state change: the RPC layer turns it into -32000 with this text. */
export class ChainError extends Error {
  /** `hardhatMessage`: Hardhat's network's text for the same refusal (the in-process provider answers with it). */
  constructor(
    message: string,
    readonly hardhatMessage?: string,
  ) {
    super(message);
  }
}

/** The message of anything thrown. */
export function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
