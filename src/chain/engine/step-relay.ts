/**
 * The EVM's step events of the chain's user executions — transactions and block production (epoch
 * hooks included) on the live VM, eth_call and eth_estimateGas in their contexts — for tools that read
 * every step: solidity-coverage reads the stack at each step to find its instrumentation's hashes.
 * Replays (traces, failure stack traces, a failing hook's explanation) are not user executions: their
 * environment reports no coverage, and their steps are not relayed.
 *
 * EthereumJS builds a step object per opcode only when its EVM has `step` listeners, so the relay
 * attaches to the chain's VMs only while someone listens to it: nothing is paid otherwise.
 *
 * With `opcodes` the relay gives only those opcodes' steps, minimal ones (MinimalStep: pc, depth,
 * opcode name, the top of the stack: the shape Hardhat's EDR network gives), told by the opcodes
 * themselves (the chain's VMs are made with them tapped: `chainOpcodes` in src/chain/engine/context.ts)
 * instead of EthereumJS's step events: solidity-coverage reads the stack's top at PUSH1 steps only
 * (PUSH, DUP and SWAP when compiling via IR), and a full step per opcode costs its run several times
 * what the tests cost.
 */
import { EventEmitter } from "node:events";
import type { InterpreterStep } from "@ethereumjs/evm";
import type { VM } from "@ethereumjs/vm";
import { type MinimalStep, envOf } from "./context";

type Forwarder = (step: InterpreterStep) => void;

export class StepRelay {
  /** VMs always watched (the live VM of each chain this relay served), with their forwarders when attached. */
  private readonly _live = new Map<VM, Forwarder | undefined>();

  /** Tells `step` listeners a tapped opcode's step (opcode mode only): set on the environments of user executions. */
  readonly tap: ((step: MinimalStep) => void) | undefined;

  /**
   * `events`: where `step` listeners get EthereumJS's InterpreterStep of each user execution's
   * opcodes; with `opcodes`, only those opcodes' minimal steps.
   */
  constructor(
    readonly events = new EventEmitter(),
    readonly opcodes: readonly string[] = [],
  ) {
    this.tap = opcodes.length === 0 ? undefined : (step) => void (this.active && this.events.emit("step", step));
    this.events.on("newListener", (name: string) => {
      if (name === "step") for (const vm of this._live.keys()) this._attach(vm);
    });
    this.events.on("removeListener", (name: string) => {
      if (name === "step" && !this.active) for (const vm of this._live.keys()) this._detach(vm);
    });
  }

  get active(): boolean {
    return this.events.listenerCount("step") > 0;
  }

  /** Watches a chain's live VM from now on; `forget` it when the chain is replaced. */
  watchLive(vm: VM): void {
    if (this.tap !== undefined) return;
    this._live.set(vm, undefined);
    if (this.active) this._attach(vm);
  }

  forget(vm: VM): void {
    this._detach(vm);
    this._live.delete(vm);
  }

  /** Relays a context's VM while it runs (when someone listens now); returns the detach. */
  during(vm: VM): () => void {
    if (!this.active || this.tap !== undefined) return () => undefined;
    const forward = this._forwarder(vm);
    vm.evm.events?.on("step", forward);
    return () => vm.evm.events?.off("step", forward);
  }

  private _forwarder(vm: VM): Forwarder {
    return (step) => {
      if (envOf(vm.evm)?.coverage !== undefined) this.events.emit("step", step);
    };
  }

  private _attach(vm: VM): void {
    if (this._live.get(vm) !== undefined) return;
    const forward = this._forwarder(vm);
    this._live.set(vm, forward);
    vm.evm.events?.on("step", forward);
  }

  private _detach(vm: VM): void {
    const forward = this._live.get(vm);
    if (forward === undefined) return;
    vm.evm.events?.off("step", forward);
    this._live.set(vm, undefined);
  }
}
