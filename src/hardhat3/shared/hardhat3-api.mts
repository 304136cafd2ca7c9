/**
 * The part of Hardhat 3's plugin API this host uses, written out structurally. This repository
 * installs Hardhat 2 (its tests and `npx hardhat` run on it), and only one `hardhat` fits in a
 * node_modules, so Hardhat 3's own types are not here to import. The fixture project of
 * test/package/hardhat3.test.ts installs the real Hardhat 3 and type-checks a project against the
 * package's declarations (type-extensions.d.mts), which is where a drift would show.
 */

export interface JsonRpcRequest {
  jsonrpc: "2.0";
  id: number | string;
  method: string;
  params?: unknown[] | object;
}

export type JsonRpcResponse = { jsonrpc: "2.0"; id: number | string; result: unknown } | { jsonrpc: "2.0"; id: number | string | null; error: { code: number; message: string; data?: unknown } };

export interface EthereumProvider {
  request(args: { method: string; params?: unknown[] | object }): Promise<unknown>;
  emit(event: string, ...args: unknown[]): boolean;
}

export interface NetworkConfig {
  type: "http" | "edr-simulated";
  chainId?: number;
  url?: unknown;
  /** An http network's headers, sent with every request (Hardhat 3 resolves them to a record). */
  httpHeaders?: Record<string, string>;
}

export interface NetworkConnection {
  readonly id: number;
  readonly networkName: string;
  readonly networkConfig: Readonly<NetworkConfig>;
  readonly provider: EthereumProvider;
  epochs?: unknown;
  close(): Promise<void>;
}

export interface ProjectPaths {
  root: string;
  cache: string;
  artifacts: string;
}

export interface HardhatConfig {
  paths: ProjectPaths;
  networks: Record<string, NetworkConfig>;
  epochs: import("../../host/settings/epochs-config.js").EpochsConfig;
}

export interface HardhatUserConfig {
  networks?: Record<string, Record<string, unknown> | undefined>;
  solidity?: unknown;
  epochs?: import("../../host/settings/epochs-config.js").EpochsUserConfig;
  [key: string]: unknown;
}

export interface HookContext {
  readonly config: HardhatConfig;
  readonly versions: { readonly hardhat: string };
  /** Hardhat's hook manager: whether a hook has handlers, and running them (`onCoverageData`, `onGasMeasurement`). */
  readonly hooks?: {
    hasHandlers(category: string, name: string): Promise<boolean>;
    runParallelHandlers(category: string, name: string, params: unknown[]): Promise<unknown[]>;
  };
}

export interface HardhatRuntimeEnvironment extends HookContext {
  readonly network: {
    create(networkOrParams?: string | { network?: string }): Promise<NetworkConnection>;
    getOrCreate(networkOrParams?: string | { network?: string }): Promise<NetworkConnection>;
  };
}

/** What `task(...)` / `overrideTask(...)` of "hardhat/config" return, as far as this host calls it. */
export interface TaskBuilder {
  addOption(option: { name: string; description?: string; type?: string; defaultValue: unknown }): TaskBuilder;
  addFlag(flag: { name: string; description?: string }): TaskBuilder;
  addPositionalArgument(arg: { name: string; description?: string; type?: string; defaultValue?: unknown }): TaskBuilder;
  addVariadicArgument(arg: { name: string; description?: string; type?: string; defaultValue?: unknown[] }): TaskBuilder;
  setAction(action: () => Promise<{ default: unknown }>): TaskBuilder;
  /** On an override: the task's description replaced. */
  setDescription(description: string): TaskBuilder;
  build(): unknown;
}

export interface HardhatConfigModule {
  task(id: string, description?: string): TaskBuilder;
  overrideTask(id: string | string[]): TaskBuilder;
}

export interface HardhatPlugin {
  id: string;
  npmPackage?: string;
  hookHandlers?: Record<string, () => Promise<{ default: unknown }>>;
  tasks?: unknown[];
}
