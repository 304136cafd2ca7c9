import { expect } from "chai";
import { existsSync } from "node:fs";
import path from "node:path";
import { bundledSolcBuild } from "../../src/hardhat/solc";

describe("offline solc builds", function () {
  this.timeout(60_000);

  it("uses the npm solc this plugin depends on for its version", async () => {
    const build = await bundledSolcBuild("0.8.30");
    expect(build).to.include({ version: "0.8.30", isSolcJs: true });
    expect(build.longVersion).to.match(/^0\.8\.30\+commit\.[0-9a-f]{8}$/);
    expect(build.compilerPath).to.equal(require.resolve("solc/soljson.js"));
  });

  it("uses another installed solc of the version asked for (Hardhat 2's own 0.8.26)", async function () {
    const hardhatSolc = path.join(path.dirname(require.resolve("hardhat/package.json")), "node_modules", "solc", "soljson.js");
    if (!existsSync(hardhatSolc)) this.skip(); // npm hoisted another layout: nothing to find there
    const build = await bundledSolcBuild("0.8.26", path.resolve(__dirname, "../.."));
    expect(build).to.include({ version: "0.8.26", isSolcJs: true, compilerPath: hardhatSolc });
    expect(build.longVersion).to.match(/^0\.8\.26\+commit\.[0-9a-f]{8}$/);
  });

  it("names the versions it has when none fits", async () => {
    let message = "";
    await bundledSolcBuild("0.8.19", path.resolve(__dirname, "../..")).catch((err: Error) => (message = err.message));
    expect(message).to.match(/solc 0\.8\.19 is not available offline: .* "solc" package, which is 0\.8\.30/);
  });
});
