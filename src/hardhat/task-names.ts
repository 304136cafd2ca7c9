/**
 * Names of the tasks and subtasks this plugin defines or overrides. Our own are "<plugin>:<verb>";
 * the overridden ones are Hardhat's, re-exported so callers import every name from one place.
 */
export { TASK_COMPILE_SOLIDITY_GET_SOLC_BUILD, TASK_NODE, TASK_NODE_GET_PROVIDER, TASK_NODE_SERVER_CREATED, TASK_NODE_SERVER_READY, TASK_TEST_GET_TEST_FILES } from "hardhat/builtin-tasks/task-names";

/** Builds the in-process runtime for `npx hardhat node` (overridable, like Hardhat's node subtasks). */
export const TASK_NODE_CREATE_RUNTIME = "epochs:node:create-runtime";
/** Starts the HTTP + WebSocket servers over the runtime's dispatcher. */
export const TASK_NODE_START_SERVER = "epochs:node:start-server";
/** Prints the start banner (addresses, accounts, warnings). */
export const TASK_NODE_PRINT_BANNER = "epochs:node:print-banner";
/** Runs the project's Solidity tests (`.t.sol`) on the epochs chain (Hardhat 2; Hardhat 3 runs them in `test solidity`). */
export const TASK_TEST_SOLIDITY = "test:solidity";
