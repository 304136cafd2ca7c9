/**
 * console.log from contracts, as Hardhat users see it in their tests: lines of transactions, calls,
 * estimates (once) and epoch hooks, in order, formatted as Hardhat formats them. (Its gas equals
 * Hardhat's: the differential test against EDR sends a console.log call.)
 */
import { expect } from "chai";
import hre, { ethers } from "hardhat";
import { AbiCoder, id } from "ethers";
import { ConsoleLogDecoder } from "../../src/solidity/console-log";
import { consoleLogDecoder } from "../../src/host/solidity/console-log-source";

/** Runs `fn` and returns the lines it printed with console.log. */
async function printed(fn: () => Promise<unknown>): Promise<string[]> {
  const lines: string[] = [];
  const original = console.log;
  console.log = (...args: unknown[]) => lines.push(args.map(String).join(" "));
  try {
    await fn();
  } finally {
    console.log = original;
  }
  return lines;
}

describe("console.log from contracts", function () {
  it("one decoder per console.sol file, whichever host asks: a project root finds its Hardhat's file, a folder without one gets none", () => {
    // this repository's root resolves the same hardhat/console.sol the plugin sees
    expect(consoleLogDecoder(hre.config.paths.root)).to.equal(consoleLogDecoder());
    expect(consoleLogDecoder(hre.config.paths.root)).to.equal(consoleLogDecoder(hre.config.paths.root));
    expect(consoleLogDecoder("/nonexistent-project")).to.equal(undefined);
  });

  it("decodes every signature console.sol declares, with Hardhat's formatting", () => {
    const decoder = consoleLogDecoder() as ConsoleLogDecoder;
    expect(decoder).to.be.instanceOf(ConsoleLogDecoder);
    // every log(...) overload of the installed console.sol, plus the legacy uint/int selectors
    expect(decoder.size).to.be.greaterThan(370);
    const coder = AbiCoder.defaultAbiCoder();
    const call = (sig: string, types: string[], values: unknown[]) => new Uint8Array(Buffer.from(id(sig).slice(2, 10) + coder.encode(types, values).slice(2), "hex"));
    expect(decoder.decode(call("log(string,uint256)", ["string", "uint256"], ["n=%d", 2n ** 200n]))).to.equal(`n=${2n ** 200n}`);
    expect(decoder.decode(call("log(int256)", ["int256"], [-5n]))).to.equal("-5");
    expect(decoder.decode(call("log(int)", ["int256"], [-5n]))).to.equal("-5");
    expect(decoder.decode(call("log(address,bool)", ["address", "bool"], ["0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266", false]))).to.equal("0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266 false");
    expect(decoder.decode(call("log(bytes)", ["bytes"], ["0xABCD"]))).to.equal("0xabcd");
    expect(decoder.decode(call("log(string,string)", ["string", "string"], ["100%% %s", "sure"]))).to.equal("100% sure");
    expect(decoder.decode(call("transfer(address,uint256)", ["address", "uint256"], ["0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266", 1n]))).to.equal(undefined);
    expect(new ConsoleLogDecoder(["log(uint256)"]).decode(new Uint8Array([1, 2]))).to.equal(undefined);
  });

  it("prints the lines of a transaction, a call and an estimate (once), in order", async () => {
    const [owner] = await ethers.getSigners();
    const logger = await ethers.deployContract("Logger");
    const me = owner.address.toLowerCase();
    // hardhat-ethers sends without estimating (the node fills the gas): the transaction's lines only
    expect(await printed(async () => (await logger.bump(-3, "note")).wait())).to.deep.equal([
      `bump #1 by ${me}`,
      "note",
      "-3",
      "flag true",
      "0x000000000000000000000000000000000000000000000000000000000000beef",
    ]);
    expect(await printed(() => logger.peek())).to.deep.equal(["peek 1"]);
    expect(await printed(() => logger.bump.estimateGas(7, "again"))).to.deep.equal([
      `bump #2 by ${me}`,
      "again",
      "7",
      "flag true",
      "0x000000000000000000000000000000000000000000000000000000000000beef",
    ]);
  });

  it("prints the lines of epoch hooks at the boundary", async () => {
    const logger = await ethers.deployContract("Logger");
    await hre.epochs.registerHooks(await logger.getAddress());
    try {
      const week = await hre.epochs.current("week");
      const lines = await printed(() => hre.epochs.advance("week"));
      expect(lines).to.include(`epoch week #${week} ends`);
      expect(lines).to.include(`epoch week #${week + 1n} starts`);
      expect(lines.indexOf(`epoch week #${week} ends`)).to.be.lessThan(lines.indexOf(`epoch week #${week + 1n} starts`));
    } finally {
      // the suite's later files share this chain: a hook left registered would run (and print) in their advances
      await hre.epochs.unregisterHooks(await logger.getAddress());
    }
  });
});
