/**
 * Hardhat 2's node subtasks run inside `npx hardhat node`, in Hardhat's order, so plugins that hook
 * them (hardhat-deploy) work: node:get-provider gives the node's chain before the server listens,
 * node:server-created sees the server before it listens, node:server-ready prints after the banner.
 * The fixture project's plugin hooks them as hardhat-deploy does (test/fixture-projects/node-subtasks).
 */
import { expect } from "chai";
import { rmSync } from "node:fs";
import path from "node:path";
import { BOOTSTRAP, ROOT, type Started, freePort, startNodeProcess, stopProcessGroup, waitForOutput } from "../helpers/processes";
import { rpc } from "../helpers/json-rpc";

const PROJECT = path.join(ROOT, "test", "fixture-projects", "node-subtasks");

describe("npx hardhat node runs Hardhat's node subtasks", function () {
  this.timeout(120_000);
  let node: Started | undefined;

  after(async () => {
    await stopProcessGroup(node?.child);
    rmSync(path.join(PROJECT, "cache"), { recursive: true, force: true });
  });

  it("deploys through node:get-provider's provider before listening, and hooks server-created and server-ready", async () => {
    const port = await freePort();
    node = await startNodeProcess(process.execPath, [BOOTSTRAP, "--config", path.join(PROJECT, "hardhat.config.ts"), "node", "--port", String(port)], { cwd: ROOT });
    await waitForOutput(node, "fixture: ready at");
    const out = node.output();
    const deployed = /fixture: deployed at (0x[0-9a-fA-F]{40}) before the server listened/.exec(out)?.[1];
    expect(deployed, out).to.be.a("string");
    // Hardhat's order: provider, server created, listening (the banner), ready
    const order = [
      "fixture: deployed at",
      `fixture: server created for 127.0.0.1:${port} (object)`,
      "Started HTTP and WebSocket JSON-RPC server at",
      "Accounts",
      `fixture: ready at 127.0.0.1:${port}`,
    ];
    const at = order.map((text) => out.indexOf(text));
    expect(
      at.every((i) => i >= 0),
      out,
    ).to.equal(true);
    expect([...at].sort((a, b) => a - b)).to.deep.equal(at);
    // what the hook sent is in the served chain
    const url = `http://127.0.0.1:${port}/`;
    expect((await rpc(url, "eth_blockNumber")).result).to.equal("0x1");
    expect((await rpc(url, "eth_call", [{ to: deployed, data: "0x" }, "latest"])).result).to.equal(`0x${"2a".padStart(64, "0")}`);
  });
});
