/**
 * solidity-coverage (0.8, `npx hardhat coverage`) on the epochs chain. It instruments the sources,
 * then builds its own provider for the hardhat network with Hardhat's internal `createProvider` —
 * EDR's, without the epochs module — makes it `hre.network.provider`, and listens to that provider's
 * `step` events (`_node._vm.evm.events`, found by walking `_wrapped`); then it runs the test task.
 *
 * No public seam reaches that provider, so this override of the test task, when solidity-coverage is
 * running (`hre.__SOLIDITY_COVERAGE_RUNNING`, which it sets for other plugins to see), puts the
 * epochs chain back as the network's provider and moves solidity-coverage's `step` listeners onto the
 * chain's step relay (EpochsProvider's `_node`). Everything else is solidity-coverage's own: the
 * network settings it sets (unlimited contract size, its block gas limit) were read by the chain,
 * which is built on the first request, after them.
 *
 * Its collector reads the top of the stack at PUSH1 steps (PUSH, DUP and SWAP steps when the project
 * compiles via IR) and counts the steps at pc 0. A chain built while it runs relays only those steps
 * (`solidityCoverageStepOpcodes`, src/chain/engine/step-relay.ts): a full EthereumJS step per opcode
 * made its runs about three times slower than the same tests without coverage.
 */
import { task } from "hardhat/config";
import { TASK_TEST } from "hardhat/builtin-tasks/task-names";
import type { EthereumProvider, HardhatRuntimeEnvironment } from "hardhat/types";
import type { EventEmitter } from "node:events";
import { withProviderExtenders } from "./provider-extenders";

interface Walkable {
  _wrapped?: unknown;
  _node?: { _vm?: { evm?: { events?: EventEmitter } } };
}

/** The provider at the bottom of `provider`'s wrappers (Hardhat's adapters keep the wrapped one in `_wrapped`). */
function bottomOf(provider: unknown): Walkable {
  let cur = provider as Walkable;
  for (let depth = 0; depth < 64 && cur._wrapped !== undefined && cur._wrapped !== null; depth++) cur = cur._wrapped as Walkable;
  return cur;
}

/**
 * The opcodes whose steps solidity-coverage's collector reads (its lib/collector.js), when it is running; else undefined (every step).
 * @lazy loaded by a deferred require() (knip cannot see it)
 */
export function solidityCoverageStepOpcodes(hre: HardhatRuntimeEnvironment): string[] | undefined {
  if ((hre as HardhatRuntimeEnvironment & { __SOLIDITY_COVERAGE_RUNNING?: boolean }).__SOLIDITY_COVERAGE_RUNNING !== true) return undefined;
  const { compilers, overrides } = hre.config.solidity;
  const viaIR = [...compilers, ...Object.values(overrides)].some((c) => (c.settings as { viaIR?: boolean } | undefined)?.viaIR === true);
  if (!viaIR) return ["PUSH1"];
  const n = (prefix: string, count: number): string[] => Array.from({ length: count }, (_, i) => `${prefix}${i + 1}`);
  return [...n("PUSH", 32), ...n("DUP", 16), ...n("SWAP", 16)];
}

/** When solidity-coverage made its own provider the network's: the epochs chain back, its step listeners moved onto the chain. */
function adoptCoverageProvider(hre: HardhatRuntimeEnvironment): boolean {
  const ours = hre.epochsProvider;
  const running = (hre as HardhatRuntimeEnvironment & { __SOLIDITY_COVERAGE_RUNNING?: boolean }).__SOLIDITY_COVERAGE_RUNNING === true;
  if (!running || ours === undefined) return false;
  const theirs = bottomOf(hre.network.provider);
  if ((theirs as unknown) === ours) return false;
  const from = theirs._node?._vm?.evm?.events;
  const to = ours._node._vm.evm.events;
  for (const listener of from?.listeners("step") ?? []) {
    from?.off("step", listener as (...args: unknown[]) => void);
    to.on("step", listener as (...args: unknown[]) => void);
  }
  hre.network.provider = withProviderExtenders(ours, hre) as EthereumProvider;
  return true;
}

task(TASK_TEST).setAction(async (args: unknown, hre, runSuper) => {
  adoptCoverageProvider(hre);
  return runSuper(args);
});
