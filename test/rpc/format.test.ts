import { expect } from "chai";
import { hexlify } from "ethers";
import { hex } from "../../src/rpc/format";

describe("rpc/format hex", () => {
  it("encodes bytes as 0x-prefixed lowercase hex, leading zeros kept", () => {
    expect(hex(new Uint8Array())).to.equal("0x");
    expect(hex(new Uint8Array([0]))).to.equal("0x00");
    expect(hex(new Uint8Array([0, 1, 0xab, 0xff]))).to.equal("0x0001abff");
    const random = Uint8Array.from({ length: 32 }, (_, i) => (i * 37 + 11) & 255);
    expect(hex(random)).to.equal(hexlify(random));
  });

  it("encodes only the view's bytes of a subarray (decoded RLP fields are views into one buffer)", () => {
    const whole = Uint8Array.from({ length: 64 }, (_, i) => i);
    const view = whole.subarray(20, 52);
    expect(hex(view)).to.equal(hexlify(view));
    expect(hex(view)).to.equal(`0x${Array.from({ length: 32 }, (_, i) => (i + 20).toString(16).padStart(2, "0")).join("")}`);
    expect(hex(whole.subarray(64))).to.equal("0x");
  });
});
