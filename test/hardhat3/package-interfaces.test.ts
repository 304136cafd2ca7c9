/**
 * Which of the package's Solidity interfaces a Hardhat 3 project builds (src/hardhat3/shared/package-interfaces.mts):
 * each one whose pragma one of the project's compilers satisfies, added to `npmFilesToBuild` after the
 * user's own, in every form of the `solidity` config. Run from the built package (dist/), as Hardhat 3
 * loads it; test/package/hardhat3.test.ts builds a project with them and calls a precompile through
 * `getContractAt("IStaking", …)`.
 */
import { expect } from "chai";
import { spawnSync } from "node:child_process";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { ROOT, buildDist } from "../helpers/processes";

/** What `withPackageInterfaces(solidity)` answers, from the built module in a child Node.js (it is ESM). */
function withInterfaces(solidity: unknown): { version?: string; compilers?: unknown[]; profiles?: unknown; npmFilesToBuild?: string[] } {
  const url = pathToFileURL(path.join(ROOT, "dist", "src", "hardhat3", "shared", "package-interfaces.mjs")).href;
  const script = `const m = await import(${JSON.stringify(url)}); console.log(JSON.stringify(m.withPackageInterfaces(${JSON.stringify(solidity)})));`;
  const r = spawnSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8", timeout: 60_000 });
  if (r.status !== 0) throw new Error(r.stderr);
  return JSON.parse(r.stdout) as ReturnType<typeof withInterfaces>;
}

const PRECOMPILES = ["CosmosTypes", "IBank", "IBech32", "IDistribution", "IGov", "IICS20", "ISlashing", "IStaking", "IWERC20", "P256"].map((n) => `hardhat-epochs/contracts/precompiles/${n}.sol`);
const EPOCHS = ["hardhat-epochs/contracts/IEpochHooks.sol", "hardhat-epochs/contracts/IEpochs.sol", "hardhat-epochs/contracts/IEpochsCheats.sol"];

describe("the package's Solidity interfaces on Hardhat 3 (npmFilesToBuild)", function () {
  this.timeout(240_000);
  before(() => buildDist());

  it("adds every interface for a compiler that takes them all, in the object form", () => {
    expect(withInterfaces("0.8.30")).to.deep.equal({ version: "0.8.30", npmFilesToBuild: [...EPOCHS, ...PRECOMPILES] });
  });

  it("adds only what the project's compilers can build: >=0.8.17 files for 0.8.18, none for 0.7.6", () => {
    expect(withInterfaces({ version: "0.8.18" }).npmFilesToBuild).to.deep.equal(PRECOMPILES);
    expect(withInterfaces({ version: "0.7.6" })).to.deep.equal({ version: "0.7.6" });
    expect(withInterfaces(["0.7.6", "0.8.24"]).npmFilesToBuild).to.deep.equal([...EPOCHS, ...PRECOMPILES]);
  });

  it("keeps the user's own list first and each file once; profiles and compilers forms too", () => {
    const own = ["@openzeppelin/contracts/token/ERC20/ERC20.sol", EPOCHS[1]];
    expect(withInterfaces({ compilers: [{ version: "0.8.30" }], npmFilesToBuild: own }).npmFilesToBuild).to.deep.equal([...own, EPOCHS[0], EPOCHS[2], ...PRECOMPILES]);
    const profiles = withInterfaces({ profiles: { default: { version: "0.8.30" }, production: { version: "0.8.30" } } });
    expect(profiles.profiles).to.deep.equal({ default: { version: "0.8.30" }, production: { version: "0.8.30" } });
    expect(profiles.npmFilesToBuild).to.have.length(13);
  });
});
