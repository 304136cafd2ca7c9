/**
 * src/utils/values.ts: the one set of value checks every reader of settings uses (hardhat.config's
 * epochs section, the node's flags, app.toml, a genesis.json). The readers' own tests cover their
 * wording; these pin what each check takes and refuses.
 */
import { expect } from "chai";
import { booleanValue, hexBytes, safeInteger, shown, wholeNumber } from "../../src/utils/values";

describe("setting values (src/utils/values.ts)", () => {
  it("wholeNumber: bigints, safe integers and decimal strings ≥ 0; 0x and trimming only when asked; a maximum", () => {
    expect(wholeNumber(5n)).to.equal(5n);
    expect(wholeNumber(7)).to.equal(7n);
    expect(wholeNumber("12")).to.equal(12n);
    expect(wholeNumber("0x10")).to.equal(undefined);
    expect(wholeNumber("0x10", { hex: true })).to.equal(16n);
    expect(wholeNumber(" 3 ")).to.equal(undefined);
    expect(wholeNumber(" 3 ", { trim: true })).to.equal(3n);
    for (const bad of [-1, -1n, 1.5, 2 ** 60, "-3", "", "1e3", null, undefined, true, {}]) expect(wholeNumber(bad), String(bad)).to.equal(undefined);
    expect(wholeNumber("18446744073709551615", { max: 2n ** 64n - 1n })).to.equal(2n ** 64n - 1n);
    expect(wholeNumber("18446744073709551616", { max: 2n ** 64n - 1n })).to.equal(undefined);
  });

  it("safeInteger: numbers from a minimum (0 by default), strings only when asked", () => {
    expect(safeInteger(0)).to.equal(0);
    expect(safeInteger(0, { min: 1 })).to.equal(undefined);
    expect(safeInteger("8")).to.equal(undefined);
    expect(safeInteger(" 8 ", { strings: true })).to.equal(8);
    for (const bad of [-1, 1.5, Number.MAX_SAFE_INTEGER + 1, NaN, 5n, "x"]) expect(safeInteger(bad, { strings: true }), String(bad)).to.equal(undefined);
  });

  it("booleanValue: booleans, and the two strings when asked", () => {
    expect(booleanValue(false)).to.equal(false);
    expect(booleanValue("true")).to.equal(undefined);
    expect(booleanValue("true", { strings: true })).to.equal(true);
    expect(booleanValue("yes", { strings: true })).to.equal(undefined);
    expect(booleanValue(1)).to.equal(undefined);
  });

  it("hexBytes: exactly the length asked, 0x-prefixed", () => {
    expect(hexBytes(`0x${"ab".repeat(20)}`, 20)).to.deep.equal(new Uint8Array(20).fill(0xab));
    expect(hexBytes(`0x${"ab".repeat(19)}`, 20)).to.equal(undefined);
    expect(hexBytes(`${"ab".repeat(20)}`, 20)).to.equal(undefined);
    expect(hexBytes(`0x${"zz".repeat(20)}`, 20)).to.equal(undefined);
    expect(hexBytes(20, 20)).to.equal(undefined);
  });

  it("shown: JSON, bigints as strings of their digits, undefined as the word", () => {
    expect(shown({ a: 1n, b: "x" })).to.equal('{"a":"1","b":"x"}');
    expect(shown(5n)).to.equal('"5"');
    expect(shown(undefined)).to.equal("undefined");
  });
});
