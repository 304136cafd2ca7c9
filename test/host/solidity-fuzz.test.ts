/** The fuzz inputs of Solidity tests (src/host/solidity-tests/fuzz.ts): seeded, typed, edge-weighted, shrinkable. */
import { expect } from "chai";
import { ParamType } from "ethers/abi";
import { randomValue, shrinkCandidates } from "../../src/host/solidity-tests/fuzz";
import { Rng } from "../../src/utils/rng";

describe("Solidity test fuzz inputs", () => {
  it("come out the same for the same seed and differ for another", () => {
    const t = ParamType.from("uint256");
    const a = new Rng(42n);
    const b = new Rng(42n);
    const c = new Rng(43n);
    const seq = (r: Rng) => Array.from({ length: 20 }, () => randomValue(t, r));
    const first = seq(a);
    expect(seq(b)).to.deep.equal(first);
    expect(seq(c)).to.not.deep.equal(first);
  });

  it("fit their type, and include the type's edges", () => {
    const rng = new Rng(7n);
    const seen = new Set<bigint>();
    for (let i = 0; i < 400; i++) {
      const v = randomValue(ParamType.from("uint8"), rng) as bigint;
      expect(v >= 0n && v <= 255n).to.equal(true);
      seen.add(v);
      const s = randomValue(ParamType.from("int16"), rng) as bigint;
      expect(s >= -32768n && s <= 32767n).to.equal(true);
    }
    expect(seen.has(0n) && seen.has(255n)).to.equal(true);
    expect(randomValue(ParamType.from("address"), rng)).to.match(/^0x[0-9a-fA-F]{40}$/);
    expect(randomValue(ParamType.from("bytes4"), rng)).to.match(/^0x[0-9a-f]{8}$/);
    const arr = randomValue(ParamType.from("uint256[3]"), rng) as unknown[];
    expect(arr).to.have.length(3);
  });

  it("shrink towards small values", () => {
    expect(shrinkCandidates(ParamType.from("uint256"), 100n)).to.deep.equal([0n, 50n, 99n]);
    expect(shrinkCandidates(ParamType.from("uint256"), 0n)).to.deep.equal([]);
    expect(shrinkCandidates(ParamType.from("uint256[]"), [1n, 2n])).to.deep.equal([[], [1n], [2n]]);
  });
});
