/**
 * Names for code the chain runs, from the project's compilation results: which contract a deployment
 * creates and which contract and function a call reaches. The chain knows only bytes; the Hardhat layer
 * supplies an implementation (the node's log prints the names).
 */
export interface ContractNames {
  describeCall(code: Uint8Array, data: Uint8Array): { contract: string; function?: string } | undefined;
  describeDeploy(initCode: Uint8Array): { contract: string } | undefined;
}
