/**
 * Plugins that wrap the network's provider through Hardhat's public `extendProvider` (hardhat-gas-reporter
 * 2, hardhat-ledger, …) get the hardhat network's provider to wrap, as Hardhat gives it to them for
 * its own network. Hardhat applies extenders inside its internal `createProvider`, which this plugin
 * does not call (it never builds EDR), so the extenders are applied here: on the first request, each
 * over the previous one, starting from the epochs chain's provider, then Hardhat's legacy adapter
 * (`send`, `sendAsync`) over the result — the order and shape of `createProvider`. Without extenders
 * `hre.network.provider` stays the chain's provider itself.
 *
 * The extender list and the two adapter classes are Hardhat 2 internals (no public accessor exists);
 * they are only read, never changed.
 */
import type { EIP1193Provider, EthereumProvider, HardhatRuntimeEnvironment, ProviderExtender } from "hardhat/types";
import { HardhatContext } from "hardhat/internal/context";

/** The extenders the project's plugins registered (none when no Hardhat context exists, e.g. a hand-made environment). */
function registeredExtenders(): readonly ProviderExtender[] {
  return HardhatContext.isCreated() ? HardhatContext.getHardhatContext().providerExtenders : [];
}

/** `provider`, wrapped by the registered extenders when there are any. */
export function withProviderExtenders(provider: EthereumProvider, hre: HardhatRuntimeEnvironment): EthereumProvider {
  if (registeredExtenders().length === 0) return provider;
  /* eslint-disable @typescript-eslint/no-require-imports -- loaded only in projects with extenders (this file loads with every task) */
  const { LazyInitializationProviderAdapter } = require("hardhat/internal/core/providers/lazy-initialization") as typeof import("hardhat/internal/core/providers/lazy-initialization");
  const { BackwardsCompatibilityProviderAdapter } = require("hardhat/internal/core/providers/backwards-compatibility") as typeof import("hardhat/internal/core/providers/backwards-compatibility");
  /* eslint-enable @typescript-eslint/no-require-imports */
  return new LazyInitializationProviderAdapter(async () => {
    let wrapped: EIP1193Provider = provider;
    for (const extend of registeredExtenders()) wrapped = await extend(wrapped, hre.config, hre.network.name);
    return new BackwardsCompatibilityProviderAdapter(wrapped);
  });
}
