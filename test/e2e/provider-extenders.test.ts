/**
 * Plugins that extend the network's provider (Hardhat's `extendProvider`: hardhat-gas-reporter 2,
 * hardhat-ledger) wrap the epochs chain's provider on the hardhat network, as they wrap EDR's on stock
 * Hardhat (src/hardhat/provider-extenders.ts). The fixture project's plugin counts what passes.
 */
import { expect } from "chai";
import { spawnSync } from "node:child_process";
import path from "node:path";
import { BOOTSTRAP, ROOT } from "../helpers/processes";

describe("Hardhat 2's provider extenders", function () {
  this.timeout(60_000);

  it("wrap the hardhat network's provider once, and see its requests, hre.epochs' included", () => {
    const config = path.join(ROOT, "test", "fixture-projects", "provider-extender", "hardhat.config.ts");
    const r = spawnSync(process.execPath, [BOOTSTRAP, "--config", config, "report"], { cwd: ROOT, encoding: "utf8", timeout: 50_000 });
    const out = `${r.stdout}${r.stderr}`;
    expect(r.status, out).to.equal(0);
    expect(out).to.include("fixture: extending the hardhat network's provider");
    expect(out).to.match(/^fixture: chain 0x2328, week 0, first account 0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266, extenders made 1$/m);
    expect(out).to.include("fixture: seen eth_chainId,epochs_currentEpoch,eth_accounts");
  });
});
