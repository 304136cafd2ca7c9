/**
 * Statement coverage as Hardhat 3 collects it: with `--coverage`, Hardhat instruments the project's
 * sources so that each statement first makes a STATICCALL to a fixed address with the statement's
 * tag as its input. Nothing lives there: the EVM runs a call to an empty account (the gas is what
 * EDR charges), and the chain watches the messages to that address and hands each tag on
 * (the node's `coverageHit` event), from every execution a user makes: transactions, calls,
 * estimates and the epoch hooks of block production.
 */

/** The address the instrumented code calls (EDR's `COVERAGE_ADDRESS`). */
export const COVERAGE_ADDRESS = "0xc0bec0bec0bec0bec0bec0bec0bec0bec0bec0be";
