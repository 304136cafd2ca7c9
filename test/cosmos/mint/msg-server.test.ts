/** x/mint's Msg server (src/cosmos/mint/msg-server.ts) on a module environment without an EVM. */
import { expect } from "chai";
import { DEFAULT_MINTER, DEFAULT_MINT_PARAMS } from "../../../src/cosmos/mint/keeper";
import { MSG_UPDATE_PARAMS, updateParams } from "../../../src/cosmos/mint/msg-server";
import { DEC } from "../../../src/cosmos/staking/types";
import { keepersAt, memoryState } from "../../helpers/module-env";

describe("mint Msg server", () => {
  it("MsgUpdateParams on a chain without x/mint is a Msg no router takes", async () => {
    const k = keepersAt(memoryState());
    await expect(updateParams(k, { params: { goalBonded: DEC / 2n } })).to.be.rejectedWith(`${MSG_UPDATE_PARAMS}: proposal message not recognized by router`);
    expect(await k.mint.params()).to.equal(undefined);
  });

  it("MsgUpdateParams keeps the fields a message leaves out, the minter as it was, and refuses a zero goal in x/mint's words", async () => {
    const k = keepersAt(memoryState());
    await k.mint.init(DEFAULT_MINT_PARAMS, DEFAULT_MINTER);
    await updateParams(k, { params: { goalBonded: DEC / 2n, blocksPerYear: 100n } });
    expect(await k.mint.params()).to.deep.equal({ ...DEFAULT_MINT_PARAMS, goalBonded: DEC / 2n, blocksPerYear: 100n });
    expect(await k.mint.minter()).to.deep.equal(DEFAULT_MINTER);
    await expect(updateParams(k, { params: { goalBonded: 0n } })).to.be.rejectedWith("goal bonded must be positive: 0.000000000000000000");
    expect((await k.mint.params())?.goalBonded).to.equal(DEC / 2n);
  });
});
