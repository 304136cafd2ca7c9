/**
 * Transactions the node signs carry their signer's public key already (src/chain/calls/accounts.ts), so block
 * production does not recover it: the key they carry must be the one their signature recovers to.
 */
import { expect } from "chai";
import { createTxFromRLP } from "@ethereumjs/tx";
import { createAddressFromString } from "@ethereumjs/util";
import { signAs } from "../../src/chain/calls/accounts";
import { type Harness, inProcess } from "../helpers/harness";

describe("transactions the node signs", () => {
  let h: Harness;
  before(async () => {
    h = await inProcess({ epochs: false });
  });
  after(() => h.close());

  it("carry the sender key their signature recovers to: a dev account's, and an impersonated account's stand-in", async () => {
    const node = h.runtime.node;
    const [dev] = await h.request<string[]>("eth_accounts");
    const stranger = "0x00000000000000000000000000000000000c0ffe";
    await h.request("hardhat_impersonateAccount", [stranger]);
    await h.request("hardhat_setBalance", [stranger, "0xde0b6b3a7640000"]);
    for (const from of [dev, stranger]) {
      const signed = signAs(node, createAddressFromString(from), { to: createAddressFromString(dev).bytes, value: 1n }, 21_000n, 0n);
      expect(signed.cache.senderPubKey, from).to.not.equal(undefined);
      const recovered = createTxFromRLP(signed.serialize(), { common: node.common }).getSenderAddress();
      expect(signed.getSenderAddress().toString(), from).to.equal(recovered.toString());
      // a dev account signs as itself; an impersonated account's transaction recovers to the stand-in key, not to it
      expect(recovered.toString() === from, from).to.equal(from === dev);
    }
    // and such a transaction is mined from the impersonated account (the recorded sender, src/chain/engine/sender.ts)
    const hash = await h.request<string>("eth_sendTransaction", [{ from: stranger, to: dev, value: "0x0" }]);
    expect((await h.request<{ from: string; status: string }>("eth_getTransactionReceipt", [hash])).from).to.equal(stranger);
  });
});
