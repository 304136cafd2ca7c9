/** forge's assertion cheatcodes' rules and failure texts (src/chain/testing/assertions.ts). */
import { expect } from "chai";
import { CHEAT_ABI } from "../../../src/chain/testing/cheat-abi";
import { checkAssertion } from "../../../src/chain/testing/assertions";

function check(signature: string, values: unknown[]): string | undefined {
  const fn = CHEAT_ABI.getFunction(signature)!;
  const args = CHEAT_ABI.decodeFunctionData(fn, CHEAT_ABI.encodeFunctionData(fn, values));
  return checkAssertion(fn.name, fn.inputs, args);
}

describe("assertion cheatcodes", () => {
  it("hold or fail with forge's texts", () => {
    expect(check("assertEq(uint256,uint256)", [1n, 1n])).to.equal(undefined);
    expect(check("assertEq(uint256,uint256)", [1n, 2n])).to.equal("assertion failed: 1 != 2");
    expect(check("assertEq(uint256,uint256,string)", [1n, 2n, "why"])).to.equal("why: 1 != 2");
    expect(check("assertEq(string,string)", ["a", "b"])).to.equal("assertion failed: a != b");
    expect(check("assertEq(address,address)", ["0x00000000000000000000000000000000000a11ce", "0x0000000000000000000000000000000000000001"])).to.equal(
      "assertion failed: 0x00000000000000000000000000000000000A11cE != 0x0000000000000000000000000000000000000001",
    );
    expect(check("assertEq(uint256[],uint256[])", [[1n], [1n, 2n]])).to.equal("assertion failed: [1] != [1, 2]");
    expect(check("assertNotEq(uint256,uint256)", [3n, 3n])).to.equal("assertion failed: 3 == 3");
    expect(check("assertLt(uint256,uint256)", [3n, 3n])).to.equal("assertion failed: 3 >= 3");
    expect(check("assertGe(int256,int256)", [-3n, -2n])).to.equal("assertion failed: -3 < -2");
    expect(check("assertTrue(bool,string)", [false, "not true"])).to.equal("not true");
    expect(check("assertEqDecimal(uint256,uint256,uint256)", [1500n, 2000n, 3n])).to.equal("assertion failed: 1.5 != 2");
    expect(check("assertApproxEqAbs(uint256,uint256,uint256)", [100n, 104n, 3n])).to.equal("assertion failed: 100 !~= 104 (max delta: 3, real delta: 4)");
    expect(check("assertApproxEqRel(uint256,uint256,uint256)", [100n, 101n, 10n ** 16n])).to.equal(undefined);
    expect(check("assertApproxEqRel(uint256,uint256,uint256)", [100n, 110n, 10n ** 16n])).to.match(/^assertion failed: 100 !~= 110 \(max delta: 1%, real delta: 9\.0909/);
  });
});
