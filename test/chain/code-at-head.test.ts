/**
 * `Node.getCode` (what the node's log names contracts by): at the head from the live state's caches
 * without building a reader, else from the state at that height; the same answers as eth_getCode,
 * with warm caches and with caches emptied after every block (a bound of one entry).
 */
import { expect } from "chai";
import { createAddressFromString } from "@ethereumjs/util";
import { type Harness, inProcess } from "../helpers/harness";

// returns 42 (its runtime: PUSH1 2a PUSH1 0 MSTORE PUSH1 20 PUSH1 0 RETURN)
const RUNTIME = "602a60005260206000f3";
const DEPLOY = `0x600a80600b6000396000f3${RUNTIME}`;

for (const bounded of [false, true]) {
  describe(`Node.getCode (${bounded ? "caches emptied after every block" : "warm caches"})`, function () {
    let h: Harness;
    before(async function () {
      h = await inProcess(bounded ? { cacheBounds: { liveEntries: 1 } } : {});
    });
    after(() => h.close());

    it("answers as eth_getCode at the head and at older heights, for contracts, accounts without code and hardhat_setCode", async function () {
      const node = h.runtime.node;
      const [from, other] = await h.request<string[]>("eth_accounts");
      const before = node.headNumber;
      const hash = await h.request<string>("eth_sendTransaction", [{ from, data: DEPLOY, gas: "0x100000" }]);
      const contract = (await h.request<{ contractAddress: string }>("eth_getTransactionReceipt", [hash])).contractAddress;
      const hex = (b: Uint8Array) => `0x${Buffer.from(b).toString("hex")}`;

      expect(hex(await node.getCode(createAddressFromString(contract)))).to.equal(`0x${RUNTIME}`);
      expect(await h.request("eth_getCode", [contract, "latest"])).to.equal(`0x${RUNTIME}`);
      expect(hex(await node.getCode(createAddressFromString(from)))).to.equal("0x");
      expect(hex(await node.getCode(createAddressFromString("0x00000000000000000000000000000000000000ee")))).to.equal("0x");
      expect(hex(await node.getCode(createAddressFromString(contract), before))).to.equal("0x");

      await h.request("hardhat_setCode", [other, "0x6001"]);
      expect(hex(await node.getCode(createAddressFromString(other)))).to.equal("0x6001");
      await h.request("evm_mine");
      expect(hex(await node.getCode(createAddressFromString(other)))).to.equal("0x6001");
      expect(hex(await node.getCode(createAddressFromString(contract)))).to.equal(`0x${RUNTIME}`);
    });
  });
}
