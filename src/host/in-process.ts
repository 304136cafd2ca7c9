/**
 * The in-process connection both hosts give the hardhat network: requests go straight to the
 * runtime's dispatcher as a trusted caller (no transport, every namespace), subscription
 * notifications come back through `notify`. The chain is built on the first request, so tasks that
 * never touch the network never build one; a start that fails is not kept, so the next request
 * reports the problem again. Each host wraps it in its own provider shape and error classes.
 */
import type { Runtime, RuntimeOptions } from "../app/runtime";
import type { Connection, JsonRpcNotification, RequestContext } from "../rpc/types";
import { type BuildInfoReader, loadCompilations } from "./solidity/compilations";

/**
 * Builds the chain of an in-process network: contracts' console.log lines print as in Hardhat's
 * tests, and the project's compilations give failures their Solidity stack traces and custom errors.
 * The chain's code loads here, on first use, so tasks that never touch the network stay fast.
 */
export async function buildInProcessRuntime(opts: RuntimeOptions, compilations: BuildInfoReader): Promise<Runtime> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a deferred CommonJS load (import() would be native ESM under Hardhat 2)
  const { createRuntime } = require("../app/runtime") as typeof import("../app/runtime");
  const runtime = await createRuntime(opts);
  runtime.node.on("consoleLog", (line: string) => console.log(line));
  loadCompilations(compilations, runtime.deps.contracts);
  return runtime;
}

/** The connection subscriptions are bound to: its notifications go to the host's provider. */
class InProcessConnection implements Connection {
  private static _next = 1_000_000_000;
  readonly id = InProcessConnection._next++;
  private readonly _closeListeners: Array<() => void> = [];

  constructor(private readonly _notify: (message: JsonRpcNotification) => void) {}

  notify(message: JsonRpcNotification): void {
    this._notify(message);
  }

  onClose(listener: () => void): void {
    this._closeListeners.push(listener);
  }

  close(): void {
    for (const l of this._closeListeners.splice(0)) l();
  }
}

export class InProcessChain {
  private _runtime: Promise<Runtime> | undefined;
  private readonly _connection: InProcessConnection;
  private readonly _ctx: RequestContext;

  constructor(
    private _factory: () => Promise<Runtime>,
    notify: (message: JsonRpcNotification) => void,
  ) {
    this._connection = new InProcessConnection(notify);
    this._ctx = { transport: "in-process", authenticated: true, connection: this._connection };
  }

  /** True once the chain has been built (or is being built). */
  get started(): boolean {
    return this._runtime !== undefined;
  }

  /**
   * Replaces how the chain is built (the node task builds it with the command line's settings).
   * Only before the first request: a started chain is never swapped under its users.
   */
  useRuntimeFactory(factory: () => Promise<Runtime>): void {
    if (this._runtime !== undefined) throw new Error("the in-process chain has already started");
    this._factory = factory;
  }

  /** The runtime, built on first use. */
  runtime(): Promise<Runtime> {
    if (this._runtime === undefined) {
      this._runtime = this._factory();
      this._runtime.catch(() => {
        this._runtime = undefined;
      });
    }
    return this._runtime;
  }

  /** One request; the chain's errors are thrown as they are (each host translates them). */
  async call(method: string, params: unknown): Promise<unknown> {
    const runtime = await this.runtime();
    return runtime.dispatcher.call(method, params ?? [], this._ctx);
  }

  /** Ends the subscriptions and closes the chain (its storage and timers). */
  async close(): Promise<void> {
    this._connection.close();
    const runtime = this._runtime;
    this._runtime = undefined;
    if (runtime !== undefined) await (await runtime.catch(() => undefined))?.close();
  }
}
