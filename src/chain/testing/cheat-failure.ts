/** A cheatcode's failure, as forge words it (the cheatcode reverts with `vm.<name>: <message>`). */
export class CheatFailure extends Error {}

/** What `vm.assume(false)` reverts with: the runner discards the fuzz input. */
export const ASSUME_MAGIC = new TextEncoder().encode("FOUNDRY::ASSUME");
