import { expect } from "chai";
import { InvalidParamsError } from "../../src/rpc/errors";
import { address, blockId, data, parseParams, quantity } from "../../src/rpc/params";
import { logFilter, txRequest } from "../../src/rpc/objects";

function paramsError(fn: () => unknown): InvalidParamsError {
  try {
    fn();
  } catch (err) {
    expect(err).to.be.instanceOf(InvalidParamsError);
    return err as InvalidParamsError;
  }
  throw new Error("expected an InvalidParamsError");
}

describe("rpc params (docs/json-rpc.md encodings)", () => {
  it("parses compact quantities and refuses the invalid forms", () => {
    expect(parseParams([quantity], ["0x0"])).to.deep.equal([0n]);
    expect(parseParams([quantity], ["0x400"])).to.deep.equal([0x400n]);
    expect(paramsError(() => parseParams([quantity], ["0x"])).message).to.equal('invalid argument 0: hex string "0x"');
    expect(paramsError(() => parseParams([quantity], ["0x0400"])).message).to.equal("invalid argument 0: hex number with leading zero digits");
    expect(paramsError(() => parseParams([quantity], ["ff"])).message).to.equal("invalid argument 0: hex string without 0x prefix");
    expect(paramsError(() => parseParams([quantity], [`0x1${"0".repeat(64)}`])).message).to.equal("invalid argument 0: hex number > 256 bits");
    expect(paramsError(() => parseParams([quantity], [12])).message).to.equal("invalid argument 0: cannot unmarshal number into a quantity");
  });

  it("parses data with an even number of digits", () => {
    expect(parseParams([data], ["0x"])).to.deep.equal([new Uint8Array()]);
    expect(paramsError(() => parseParams([data], ["0xf0f0f"])).message).to.equal("invalid argument 0: hex string of odd length");
    expect(paramsError(() => parseParams([data], ["004200"])).message).to.equal("invalid argument 0: hex string without 0x prefix");
  });

  it("checks address length", () => {
    expect(paramsError(() => parseParams([address], ["0x1234"])).message).to.equal("invalid argument 0: hex string has length 4, want 40 for an address");
  });

  it("applies arity rules: missing, null, too many, non-array", () => {
    expect(paramsError(() => parseParams([address, blockId.opt()], [])).message).to.equal("missing value for required argument 0");
    expect(paramsError(() => parseParams([address], [null])).message).to.equal("missing value for required argument 0");
    expect(paramsError(() => parseParams([address], ["0x" + "00".repeat(20), "latest"])).message).to.equal("too many arguments, want at most 1");
    expect(paramsError(() => parseParams([address], { a: 1 })).message).to.equal("non-array args");
    expect(parseParams([address, blockId.opt()], ["0x" + "11".repeat(20), null])[1]).to.equal(undefined);
  });

  it("parses EIP-1898 block parameters", () => {
    expect(blockId.parse("earliest")).to.deep.equal({ tag: "earliest" });
    expect(blockId.parse("0x10")).to.deep.equal({ number: 16n });
    expect(blockId.parse({ blockNumber: "0x2" })).to.deep.equal({ number: 2n });
    const h = "0x" + "ab".repeat(32);
    expect(blockId.parse(h)).to.have.property("hash");
    expect(blockId.parse({ blockHash: h, requireCanonical: true })).to.include({ requireCanonical: true });
    expect(() => blockId.parse({ blockHash: h, blockNumber: "0x1" })).to.throw("cannot specify both BlockHash and BlockNumber");
    expect(() => blockId.parse("foo")).to.throw("invalid block tag");
  });

  it("names the field of a bad transaction object and refuses conflicting fields", () => {
    expect(paramsError(() => parseParams([txRequest], [{ gas: "0x01" }])).message).to.equal("invalid argument 0: TransactionArgs.gas: hex number with leading zero digits");
    expect(paramsError(() => parseParams([txRequest], [{ data: "0x01", input: "0x02" }])).message).to.contain("both 'data' and 'input' are set");
    expect(paramsError(() => parseParams([txRequest], [{ gasPrice: "0x1", maxFeePerGas: "0x1" }])).message).to.contain("both gasPrice and (maxFeePerGas");
  });

  it("refuses a log filter with blockHash and a range", () => {
    const h = "0x" + "ab".repeat(32);
    expect(paramsError(() => parseParams([logFilter], [{ blockHash: h, fromBlock: "0x1" }])).message).to.equal(
      "invalid argument 0: cannot specify both BlockHash and FromBlock/ToBlock, choose one or the other",
    );
    const f = logFilter.parse({ address: "0x" + "11".repeat(20), topics: [null, ["0x" + "22".repeat(32)]] });
    expect(f.addresses).to.have.length(1);
    expect(f.topics[0]).to.equal(null);
    expect(f.topics[1]).to.have.length(1);
  });
});
