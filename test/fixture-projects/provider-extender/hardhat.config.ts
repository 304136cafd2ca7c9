/**
 * A project whose plugin wraps the network's provider through Hardhat's public `extendProvider`, as
 * hardhat-gas-reporter 2 does: the wrapper is made when the provider is first used, sees every request,
 * and the `report` task prints what it saw.
 */
import { extendProvider, task } from "hardhat/config";
import { ProviderWrapper } from "hardhat/plugins";
import type { HardhatUserConfig, RequestArguments } from "hardhat/types";
import "../../../src";

const seen: string[] = [];
let made = 0;

class CountingProvider extends ProviderWrapper {
  request(args: RequestArguments): Promise<unknown> {
    seen.push(args.method);
    return this._wrappedProvider.request(args);
  }
}

extendProvider(async (provider, _config, network) => {
  made++;
  console.log(`fixture: extending the ${network} network's provider`);
  return new CountingProvider(provider);
});

task("report", "Sends requests and prints what the extender saw").setAction(async (_args, hre) => {
  const chainId = await hre.network.provider.request({ method: "eth_chainId" });
  const week = await hre.epochs.current("week");
  const [from] = (await hre.network.provider.send("eth_accounts", [])) as string[];
  console.log(`fixture: chain ${chainId as string}, week ${week}, first account ${from}, extenders made ${made}`);
  console.log(`fixture: seen ${seen.join(",")}`);
});

const config: HardhatUserConfig = { defaultNetwork: "hardhat" };
export default config;
