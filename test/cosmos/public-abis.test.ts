/**
 * The precompiles answer cosmos/evm's ABIs and nothing more: every function a precompile's ABI
 * dispatches is one of its published interface's (contracts/precompiles/, written from cosmos/evm's
 * abi.json). The modules' own block work runs their keepers on the block's state, not through
 * selectors a contract could find (src/chain/base/module.ts, BlockContext.state).
 */
import { expect } from "chai";
import { artifacts } from "hardhat";
import { Interface } from "ethers";
import { BANK_ABI } from "../../src/cosmos/bank/precompile";
import { BECH32_ABI } from "../../src/cosmos/bech32/precompile";
import { DISTRIBUTION_ABI } from "../../src/cosmos/distribution/precompile";
import { GOV_ABI } from "../../src/cosmos/gov/precompile";
import { ICS20_ABI } from "../../src/cosmos/ics20/precompile";
import { SLASHING_ABI } from "../../src/cosmos/slashing/precompile";
import { STAKING_ABI } from "../../src/cosmos/staking/precompile";

describe("the Cosmos precompiles' ABIs", () => {
  const cases: Array<[string, Interface]> = [
    ["IStaking", STAKING_ABI],
    ["IDistribution", DISTRIBUTION_ABI],
    ["IGov", GOV_ABI],
    ["IICS20", ICS20_ABI],
    ["ISlashing", SLASHING_ABI],
    ["IBank", BANK_ABI],
    ["IBech32", BECH32_ABI],
  ];
  for (const [name, abi] of cases) {
    it(`${name}: every function dispatched is one of the published interface's`, async () => {
      const published = new Interface((await artifacts.readArtifact(name)).abi);
      const extra: string[] = [];
      abi.forEachFunction((f) => {
        if (published.getFunction(f.selector) === null) extra.push(f.format("sighash"));
      });
      expect(extra, `${name} dispatches functions its interface lacks`).to.deep.equal([]);
    });
  }
});
