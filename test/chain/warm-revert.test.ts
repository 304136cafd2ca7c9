/**
 * evm_revert (and so loadFixture) keeps the live state's caches warm: the state manager corrects only
 * what the blocks since the snapshot wrote (src/chain/engine/flush-journal.ts), so a transaction after
 * the revert reads no more from the tries than the same transaction before it, and sees the state
 * as it was at the snapshot.
 */
import { expect } from "chai";
import { type Harness, inProcess } from "../helpers/harness";
import { countTrieCalls } from "../helpers/trie-calls";

// adds 1 to slot 0 (PUSH1 1 PUSH1 0 SLOAD ADD PUSH1 0 SSTORE STOP)
const RUNTIME = "60016000540160005500";
const DEPLOY = `0x600a80600b6000396000f3${RUNTIME}`;
const word = (n: number): string => `0x${n.toString(16).padStart(64, "0")}`;

describe("evm_revert with warm caches", function () {
  let h: Harness;
  let from: string;
  let counter: string;
  const bump = () => h.request<string>("eth_sendTransaction", [{ from, to: counter, gas: "0x20000" }]);
  const slot = () => h.request<string>("eth_getStorageAt", [counter, "0x0", "latest"]);

  before(async function () {
    h = await inProcess();
    [from] = await h.request<string[]>("eth_accounts");
    const hash = await h.request<string>("eth_sendTransaction", [{ from, data: DEPLOY, gas: "0x100000" }]);
    counter = (await h.request<{ contractAddress: string }>("eth_getTransactionReceipt", [hash])).contractAddress;
    for (let i = 0; i < 3; i++) await bump();
  });
  after(() => h.close());

  it("a send after the revert reads what the same send before it read, and sees the snapshot's state", async function () {
    for (let round = 0; round < 3; round++) {
      const at = Number(BigInt(await slot()));
      const nonce = await h.request<string>("eth_getTransactionCount", [from, "latest"]);
      const id = await h.request<string>("evm_snapshot");
      const before = await countTrieCalls("get", bump);
      await bump();
      expect(await slot()).to.equal(word(at + 2));
      expect(await h.request("evm_revert", [id])).to.equal(true);
      expect(await slot()).to.equal(word(at));
      expect(await h.request("eth_getTransactionCount", [from, "latest"])).to.equal(nonce);
      const after = await countTrieCalls("get", bump);
      expect(after, `round ${round}: trie reads of the send after the revert`).to.equal(before);
      expect(await slot()).to.equal(word(at + 1));
    }
  });

  it("debug_setHead several blocks back answers that state and continues from it", async function () {
    const height = BigInt(await h.request<string>("eth_blockNumber"));
    const at = Number(BigInt(await slot()));
    for (let i = 0; i < 3; i++) await bump();
    await h.request("debug_setHead", [`0x${(height - 2n).toString(16)}`]);
    expect(await slot()).to.equal(word(at - 2));
    await bump();
    expect(await slot()).to.equal(word(at - 1));
  });
});
