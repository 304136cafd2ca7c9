/**
 * Runs RPC tests against a fresh chain in the ways users reach it (the provider matrix): the
 * in-process EIP-1193 provider Hardhat hands to tests, real HTTP and real WebSocket to a server on
 * 127.0.0.1 port 0.
 */
import { type ChainConfig, defaultChainConfig } from "../../src/chain/config";
import { type Runtime, type RuntimeOptions, createRuntime } from "../../src/app/runtime";
import type { JsonRpcResponse } from "../../src/rpc/types";
import { EpochsProvider } from "../../src/hardhat/provider";

export interface RpcFailure {
  code: number;
  message: string;
  data?: unknown;
}

export interface Harness {
  name: "in-process" | "http" | "ws";
  runtime: Runtime;
  /** Calls a method; resolves with its result, rejects with the JSON-RPC error object. */
  request<T = unknown>(method: string, params?: unknown[]): Promise<T>;
  /** Sends a raw JSON body and returns the raw response. */
  raw(body: unknown): Promise<unknown>;
  url?: string;
  close(): Promise<void>;
}

export const CLIENT_VERSION = "HardhatNetwork/2.29.1/hardhat-epochs/test";

export function testChainConfig(overrides: Partial<ChainConfig> = {}): ChainConfig {
  return { ...defaultChainConfig(), initialDate: new Date("2024-03-01T12:00:00Z"), ...overrides };
}

/** Through `EpochsProvider`, the provider `hre.network.provider` is in tests (errors are its ProviderErrors). */
export async function inProcess(opts: Partial<RuntimeOptions> = {}): Promise<Harness> {
  const runtime = await createRuntime({ chain: testChainConfig(), clientVersion: CLIENT_VERSION, ...opts });
  const provider = new EpochsProvider(async () => runtime);
  const ctx = { transport: "in-process" as const, authenticated: true };
  return {
    name: "in-process",
    runtime,
    // whole JSON bodies (batches, malformed requests) have no EIP-1193 form: the dispatcher takes them
    raw: (body: unknown) => runtime.dispatcher.handle(body, ctx),
    async request<T>(method: string, params: unknown[] = []): Promise<T> {
      try {
        return (await provider.request({ method, params })) as T;
      } catch (err) {
        const e = err as RpcFailure;
        throw Object.assign(new Error(e.message), { code: e.code, message: e.message, ...(e.data !== undefined ? { data: e.data } : {}) });
      }
    },
    close: () => runtime.close(),
  };
}

export function unwrap<T>(res: JsonRpcResponse): T {
  if ("error" in res) throw Object.assign(new Error(res.error.message), res.error);
  return res.result as T;
}

/** Expects a call to fail; returns the error object for assertions. */
export async function rpcError(p: Promise<unknown>): Promise<RpcFailure> {
  try {
    await p;
  } catch (err) {
    return err as RpcFailure;
  }
  throw new Error("expected the call to fail");
}
