/**
 * A project whose in-process network starts from a team's genesis.json (`epochs.genesisFile`, here
 * from GENESIS_FILE): the `facts` task prints, as one JSON line, what a test and a node from the same
 * genesis must agree on (chain ids, WERC20, validators, the modules' params).
 */
import { task } from "hardhat/config";
import type { HardhatUserConfig } from "hardhat/types";
import "../../../src";

task("facts", "Prints the chain's ids, native WERC20, validators and params as one JSON line").setAction(async (_args, hre) => {
  const request = (method: string, params: unknown[] = []) => hre.network.provider.request({ method, params });
  const runtime = await hre.epochsProvider?.runtime();
  const facts = {
    chainId: await request("eth_chainId"),
    cosmosChainId: runtime?.node.config.cosmosChainId,
    genesis: await request("cosmos_exportGenesis"),
  };
  console.log(`facts: ${JSON.stringify(facts)}`);
});

const config: HardhatUserConfig = {
  defaultNetwork: "hardhat",
  networks: { hardhat: { chainId: 262144 } },
  epochs: { profile: "cosmos-evm", genesisFile: process.env.GENESIS_FILE ?? "genesis.json" },
};
export default config;
