/** The EthereumJS chain definition: every hardfork up to the chosen one active from block 0. */
import { Common, Mainnet, createCustomCommon, type CustomCrypto } from "@ethereumjs/common";

export function hardforkNames(): string[] {
  return Mainnet.hardforks.map((h) => h.name);
}

export function createChainCommon(chainId: bigint, hardfork: string, customCrypto?: CustomCrypto): Common {
  const names = hardforkNames();
  const last = names.indexOf(hardfork);
  if (last < 0) throw new Error(`unknown hardfork "${hardfork}" (known: ${names.join(", ")})`);
  const hardforks = Mainnet.hardforks.slice(0, last + 1).map((h) => ({ name: h.name, block: 0, timestamp: undefined }));
  return createCustomCommon(
    { name: "hardhat-epochs", chainId: Number(chainId), hardforks },
    Mainnet,
    { hardfork, customCrypto },
  );
}
