/** eth_sendRawTransaction of a transaction signed for another chain: geth's words, on every transport. */
import { expect } from "chai";
import { Wallet } from "ethers";
import { rpcError } from "../helpers/harness";
import { harnesses } from "../helpers/matrix";

const KEY = "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80";

for (const make of harnesses()) {
  describe(`eth_sendRawTransaction signed for another chain (${make.name})`, function () {
    it("is refused with geth's text naming both chain ids, for typed and legacy transactions", async () => {
      const h = await make.create();
      try {
        const want = BigInt(await h.request<string>("eth_chainId"));
        const w = new Wallet(KEY);
        for (const tx of [
          { type: 2, maxFeePerGas: 10n ** 10n, maxPriorityFeePerGas: 1n },
          { type: 1, gasPrice: 10n ** 10n },
          { type: 0, gasPrice: 10n ** 10n },
        ]) {
          const raw = await w.signTransaction({ ...tx, to: w.address, gasLimit: 21_000, chainId: 1n, nonce: 0 });
          const err = await rpcError(h.request("eth_sendRawTransaction", [raw]));
          expect(err.message, `type ${tx.type}`).to.equal(`invalid chain id for signer: have 1 want ${want}`);
        }
        expect(await h.request("eth_blockNumber")).to.equal("0x0");
      } finally {
        await h.close();
      }
    });
  });
}
