import { expect } from "chai";
import { Common, Mainnet } from "@ethereumjs/common";
import { createChainCommon, hardforkNames } from "../../src/chain/engine/common";

describe("ChainCommon", function () {
  it("answers isActivatedEIP as EthereumJS's Common does, at every hardfork and after a change", () => {
    const names = hardforkNames();
    const ours = createChainCommon(9000n, "osaka", undefined);
    // the same chain as a plain Common
    const hardforks = Mainnet.hardforks.slice(0, names.indexOf("osaka") + 1).map((h) => ({ name: h.name, block: 0, timestamp: undefined }));
    const plain = new Common({ chain: { ...Mainnet, name: "plain", chainId: 9000, hardforks }, hardfork: "osaka" });
    const eips = Array.from({ length: 8200 }, (_, i) => i);
    const answers = (c: Common): number[] => eips.filter((e) => c.isActivatedEIP(e));
    expect(answers(ours)).to.deep.equal(answers(plain));
    expect(answers(ours)).to.include.members([1559, 3855, 7702]);
    for (const hf of ["prague", "cancun", "london"]) {
      ours.setHardfork(hf);
      plain.setHardfork(hf);
      expect(answers(ours), hf).to.deep.equal(answers(plain));
    }
    // at london: EIP-1559 yes, Prague's EIP-7702 no (the cached answers followed the hardfork)
    expect([ours.isActivatedEIP(1559), ours.isActivatedEIP(7702)]).to.deep.equal([true, false]);
  });
});
