/**
 * The node's command line, the part a real node cannot show on a shared machine: an explicit `--port 8545` (the
 * old default) must win over app.toml's address too. The node task's `--port` has no default, so a
 * port given on the command line is told apart from none; and the Hardhat and Node.js checks at load.
 */
import { expect } from "chai";
import hre from "hardhat";
import { ArgumentsParser } from "hardhat/internal/cli/ArgumentsParser";
import type { TaskDefinition } from "hardhat/types";
import { compatibilityProblem } from "../../src/hardhat/compat";
import { evmosFlags, resolveNodeConfig } from "../../src/hardhat/node-task";
import { serverSettings } from "../../src/host/settings/app-config";
import { TASK_NODE } from "../../src/hardhat/task-names";

describe("the node's command line", () => {
  const parse = (args: string[]) => new ArgumentsParser().parseTaskArguments(hre.tasks[TASK_NODE] as TaskDefinition, args);
  const appToml = { source: "app.toml", jsonRpc: { address: { host: "127.0.0.2", port: 9000 } } };

  it("--port has no default, so an explicit --port 8545 wins over app.toml's address", () => {
    expect(parse([]).port).to.equal(undefined);
    const explicit = parse(["--port", "8545"]);
    expect(evmosFlags(explicit).port).to.equal("8545");
    expect(serverSettings(resolveNodeConfig(evmosFlags(explicit), appToml, hre))).to.deep.include({ host: "127.0.0.2", port: 8545 });
    expect(serverSettings(resolveNodeConfig(evmosFlags(parse([])), appToml, hre))).to.deep.include({ host: "127.0.0.2", port: 9000 });
    expect(serverSettings(resolveNodeConfig(evmosFlags(parse([])), undefined, hre))).to.deep.include({ host: "127.0.0.1", port: 8545 });
  });

  it("the --flag=value form and every [json-rpc] key's flag parse", () => {
    const args = parse(["--json-rpc.enable=false", "--json-rpc.batch-request-limit=7", "--json-rpc.body-limit", "100", "--hostname", "127.0.0.3"]);
    const flags = evmosFlags(args);
    expect(flags).to.deep.include({ "json-rpc.enable": false, "json-rpc.batch-request-limit": "7", "json-rpc.body-limit": "100", hostname: "127.0.0.3" });
    expect(serverSettings(resolveNodeConfig(flags, undefined, hre))).to.deep.include({ host: "127.0.0.3", batchLimit: 7, bodyLimit: 100 });
  });
});

describe("package: Hardhat and Node.js checked at load", () => {
  it("names what is installed and what is needed", () => {
    expect(compatibilityProblem("2.29.1", "20.19.0")).to.equal(undefined);
    expect(compatibilityProblem("2.26.0", "22.1.0")).to.equal(undefined);
    expect(compatibilityProblem("3.0.4", "22.13.0")).to.equal(
      'hardhat-epochs needs Hardhat ^2.26.0, but this project has Hardhat 3.0.4: with Hardhat 3, list the plugin in `plugins` of hardhat.config.ts instead (`import hardhatEpochs from "hardhat-epochs"`, the package\'s import entry), or install hardhat@^2',
    );
    expect(compatibilityProblem("2.22.0", "20.19.0")).to.match(/needs Hardhat \^2\.26\.0, but this project has Hardhat 2\.22\.0: upgrade Hardhat/);
    expect(compatibilityProblem("2.29.1", "20.18.3")).to.equal("hardhat-epochs needs Node.js >=20.19 (the EthereumJS VM it runs loads ES modules with require()), but this is Node.js 20.18.3");
    expect(compatibilityProblem("2.29.1", "18.20.0")).to.match(/needs Node\.js >=20\.19/);
  });
});
