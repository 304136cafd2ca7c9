/** The chain identity record of a store: written with genesis, checked on reopen, completed for older stores. */
import { expect } from "chai";
import { readGenesisMeta } from "../../../src/chain/base/genesis-meta";
import { createRuntime, type Runtime } from "../../../src/app/runtime";
import { MemoryKV } from "../../../src/storage/memory-kv";
import { CLIENT_VERSION, testChainConfig } from "../../helpers/harness";

const ctx = { transport: "in-process" as const, authenticated: true };
const enc = new TextEncoder();

describe("genesis meta record", () => {
  // MemoryKV.close keeps the data, so one store can be "reopened" in memory
  const open = (kv: MemoryKV, chainId = 9000n): Promise<Runtime> => createRuntime({ chain: testChainConfig({ chainId }), clientVersion: CLIENT_VERSION, kv, epochs: false });

  it("is written with the genesis block: chain id and genesis hash", async () => {
    const kv = new MemoryKV();
    const rt = await open(kv);
    const genesis = (await rt.dispatcher.call("eth_getBlockByNumber", ["0x0", false], ctx)) as { hash: string };
    await rt.close();
    expect(await readGenesisMeta(kv)).to.deep.equal({ chainId: 9000n, genesisHash: genesis.hash });
  });

  it("completes the chain-id-only record of older stores, keeping their chain id", async () => {
    const kv = new MemoryKV();
    let rt = await open(kv);
    await rt.dispatcher.call("evm_mine", [], ctx);
    const genesis = (await rt.dispatcher.call("eth_getBlockByNumber", ["0x0", false], ctx)) as { hash: string };
    await rt.close();
    await kv.batch([
      { type: "del", key: enc.encode("meta/genesis") },
      { type: "put", key: enc.encode("chainid"), value: enc.encode("9000") },
    ]);
    const err = await open(kv, 1234n).catch((e: Error) => e);
    expect((err as Error).message).to.equal("data directory (in memory) holds chain 9000, but the genesis file says chain id 1234");
    rt = await open(kv);
    expect(await rt.dispatcher.call("eth_blockNumber", [], ctx)).to.equal("0x1");
    await rt.close();
    expect(await readGenesisMeta(kv)).to.deep.equal({ chainId: 9000n, genesisHash: genesis.hash });
    expect(await kv.get(enc.encode("chainid"))).to.equal(undefined);
  });

  it("refuses a store whose genesis block is not the recorded one", async () => {
    const kv = new MemoryKV();
    await (await open(kv)).close();
    await kv.batch([{ type: "put", key: enc.encode("meta/genesis"), value: enc.encode(JSON.stringify({ chainId: "9000", genesisHash: `0x${"11".repeat(32)}` })) }]);
    const err = await open(kv).catch((e: Error) => e);
    expect((err as Error).message).to.match(/^data directory \(in memory\) is damaged: its genesis block 0x[0-9a-f]{64} is not the recorded genesis 0x1111/);
  });
});
