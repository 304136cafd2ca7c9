/**
 * A project whose plugin hooks Hardhat 2's node subtasks the way hardhat-deploy does: it deploys a
 * contract through the provider node:get-provider returns (before the server listens), notes
 * node:server-created, and prints after the node's banner in node:server-ready.
 */
import { subtask } from "hardhat/config";
import { TASK_NODE_GET_PROVIDER, TASK_NODE_SERVER_CREATED, TASK_NODE_SERVER_READY } from "hardhat/builtin-tasks/task-names";
import type { EthereumProvider } from "hardhat/types";
import "../../../src";

// init code of a contract whose runtime code returns 42
const INIT_CODE = "0x600a600c600039600a6000f3602a60005260206000f3";

subtask(TASK_NODE_GET_PROVIDER).setAction(async (args, _hre, runSuper) => {
  const provider = (await runSuper(args)) as EthereumProvider;
  const [from] = (await provider.request({ method: "eth_accounts" })) as string[];
  const hash = await provider.request({ method: "eth_sendTransaction", params: [{ from, data: INIT_CODE }] });
  const receipt = (await provider.request({ method: "eth_getTransactionReceipt", params: [hash] })) as { contractAddress: string };
  console.log(`fixture: deployed at ${receipt.contractAddress} before the server listened`);
  return provider;
});

subtask(TASK_NODE_SERVER_CREATED).setAction(async ({ hostname, port, server }: { hostname: string; port: number; server: unknown }) => {
  console.log(`fixture: server created for ${hostname}:${port} (${typeof server})`);
});

subtask(TASK_NODE_SERVER_READY).setAction(async (args: { address: string; port: number }, _hre, runSuper) => {
  await runSuper(args);
  console.log(`fixture: ready at ${args.address}:${args.port}`);
});

export default { solidity: "0.8.30" };
