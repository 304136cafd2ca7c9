/**
 * The staking and distribution precompiles (src/cosmos/) as clients and contracts reach them: ethers
 * over the in-process provider, HTTP and WebSocket, a contract of ours that stakes its own balance
 * (contracts/test/Staker.sol), with balances, shares, events, completion times and rewards checked
 * against values worked out by hand in the comments.
 */
import { expect } from "chai";
import {
  BrowserProvider,
  Contract,
  ContractFactory,
  Interface,
  type ContractTransactionResponse,
  type Eip1193Provider,
  JsonRpcProvider,
  type Provider,
  type Signer,
  type TransactionReceipt,
  WebSocketProvider,
  getBytes,
} from "ethers";
import { artifacts } from "hardhat";
import { bech32 } from "bech32";
import { DISTRIBUTION_ABI } from "../../../src/cosmos/distribution/precompile";
import { BONDED_POOL, DISTRIBUTION_ACCOUNT, NOT_BONDED_POOL } from "../../../src/cosmos/common/accounts";
import { STAKING_ABI } from "../../../src/cosmos/staking/precompile";
import { StakingKeeper } from "../../../src/cosmos/staking/keeper";
import type { RuntimeOptions } from "../../../src/app/runtime";
import type { Harness } from "../../helpers/harness";
import { harnesses } from "../../helpers/matrix";

const E18 = 10n ** 18n;
const STAKING = "0x0000000000000000000000000000000000000800";
const DISTRIBUTION = "0x0000000000000000000000000000000000000801";
// Hardhat's first three dev accounts: validator 0's operator, a delegator, validator 1's operator
const OP0 = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266";
const ALICE = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const OP1 = "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC";
const valoper = (hex: string): string => bech32.encode("cosmosvaloper", bech32.toWords(getBytes(hex)));
const account = (hex: string): string => bech32.encode("cosmos", bech32.toWords(getBytes(hex)));
const UNBONDING = 1_814_400n;

/** Two validators (1,000 and 500 coins, commission 10 % and 5 %), rewards of 10 coins at each minute's end. */
const CHAIN: Partial<RuntimeOptions> = {
  epochs: { profile: "cosmos-evm" },
  cosmos: {
    staking: { validators: [{ operator: OP0 }, { operator: OP1, tokens: 500n * E18, commissionRate: E18 / 20n, moniker: "second" }] },
    distribution: { epochIdentifier: "minute" },
  },
};

interface Chain {
  h: Harness;
  provider: Provider;
  signer(address: string): Promise<Signer>;
  close(): Promise<void>;
}

async function open(make: { name: string; create(o?: Partial<RuntimeOptions>): Promise<Harness> }, opts: Partial<RuntimeOptions> = CHAIN): Promise<Chain> {
  const h = await make.create(opts);
  let provider: JsonRpcProvider | BrowserProvider | WebSocketProvider;
  // no response cache: balances are read right after the blocks that change them
  if (make.name === "http") provider = new JsonRpcProvider(h.url, undefined, { staticNetwork: true, cacheTimeout: -1 });
  else if (make.name === "ws") provider = new WebSocketProvider(h.url as string, undefined, { cacheTimeout: -1 });
  else provider = new BrowserProvider({ request: ({ method, params }) => h.request(method, (params as unknown[]) ?? []) } satisfies Eip1193Provider, undefined, { cacheTimeout: -1 });
  return {
    h,
    provider,
    signer: (address) => provider.getSigner(address),
    close: async () => {
      await provider.destroy();
      await h.close();
    },
  };
}

/** The arguments of the first `name` event `c` emitted in the receipt. */
function eventOf(c: Contract, receipt: TransactionReceipt | null, name: string): unknown[] {
  for (const log of receipt?.logs ?? []) {
    const parsed = c.interface.parseLog(log);
    if (parsed?.name === name) return [...parsed.args];
  }
  throw new Error(`no ${name} event`);
}

const fee = async (tx: ContractTransactionResponse): Promise<bigint> => {
  const r = await tx.wait();
  if (r === null) throw new Error("no receipt");
  return r.gasUsed * r.gasPrice;
};

for (const make of harnesses()) {
  describe(`the staking and distribution precompiles over ${make.name}`, function () {
    let chain: Chain;
    beforeEach(async () => {
      chain = await open(make);
    });
    afterEach(async () => {
      await chain.close();
    });

    const staking = async (from = ALICE) => new Contract(STAKING, STAKING_ABI, await chain.signer(from));
    const distribution = async (from = ALICE) => new Contract(DISTRIBUTION, DISTRIBUTION_ABI, await chain.signer(from));
    const balance = (a: string) => chain.provider.getBalance(a);
    const time = async () => BigInt((await chain.h.request<{ timestamp: string }>("eth_getBlockByNumber", ["latest", false])).timestamp);

    it("starts with the configured validators bonded, their self-delegations in the bonded pool", async () => {
      const s = await staking();
      const [validators, page] = await s.validators("", { key: "0x", offset: 0, limit: 0, countTotal: true, reverse: false });
      // in the order the SDK's store keeps them: by operator address bytes (0x3C… before 0xf3…)
      expect(validators.map((v: { operatorAddress: string }) => v.operatorAddress)).to.deep.equal([OP1, OP0]);
      const [v1, v0] = validators;
      expect([v0.jailed, v0.status, v0.tokens, v0.delegatorShares, v0.commission, v0.description.moniker]).to.deep.equal([false, 3n, 1000n * E18, 1000n * E18 * E18, E18 / 10n, "validator-0"]);
      expect([v1.tokens, v1.commission, v1.description.moniker]).to.deep.equal([500n * E18, E18 / 20n, "second"]);
      expect(page.total).to.equal(2n);
      expect(await balance(BONDED_POOL)).to.equal(1500n * E18);
      // the operators keep their dev balances: genesis bonds are minted into the pool
      expect(await balance(OP0)).to.equal(10_000n * E18);
      expect((await s.validator(OP0)).tokens).to.equal(1000n * E18);
      expect((await s.validator(ALICE)).operatorAddress).to.equal("");
      const [onePage, next] = await s.validators("BOND_STATUS_BONDED", { key: "0x", offset: 0, limit: 1, countTotal: true, reverse: false });
      expect(onePage.length).to.equal(1);
      expect(onePage[0].operatorAddress).to.equal(OP1);
      const [second] = await s.validators("BOND_STATUS_BONDED", { key: next.nextKey, offset: 0, limit: 1, countTotal: false, reverse: false });
      expect(second[0].operatorAddress).to.equal(OP0);
    });

    it("delegates, undelegates with a completion time, and pays the coins back when time reaches it", async () => {
      const s = await staking();
      const before = await balance(ALICE);
      const tx = await s.delegate(ALICE, valoper(OP0), 100n * E18);
      const paid = await fee(tx);
      const receipt = await tx.wait();
      const delegated = eventOf(s, receipt, "Delegate");
      // 100 coins at 10^18 shares per coin
      expect(delegated).to.deep.equal([ALICE, OP0, 100n * E18, 100n * E18 * E18]);
      expect(await balance(ALICE)).to.equal(before - 100n * E18 - paid);
      expect(await balance(BONDED_POOL)).to.equal(1600n * E18);
      const [shares, coin] = await s.delegation(ALICE, valoper(OP0));
      expect([shares, coin.denom, coin.amount]).to.deep.equal([100n * E18 * E18, "atest", 100n * E18]);

      const un = await s.undelegate(ALICE, valoper(OP0), 40n * E18);
      const unReceipt = await un.wait();
      const at = BigInt((await chain.provider.getBlock(unReceipt!.blockNumber))!.timestamp);
      const unbond = eventOf(s, unReceipt, "Unbond");
      expect(unbond).to.deep.equal([ALICE, OP0, 40n * E18, at + UNBONDING]);
      const out = await s.unbondingDelegation(ALICE, valoper(OP0));
      expect([out.delegatorAddress, out.validatorAddress]).to.deep.equal([account(ALICE), valoper(OP0)]);
      expect(
        out[2].map((e: { creationHeight: bigint; completionTime: bigint; initialBalance: bigint; balance: bigint }) => [e.creationHeight, e.completionTime, e.initialBalance, e.balance]),
      ).to.deep.equal([[BigInt(unReceipt!.blockNumber), at + UNBONDING, 40n * E18, 40n * E18]]);
      expect(await balance(NOT_BONDED_POOL)).to.equal(40n * E18);
      expect((await s.delegation(ALICE, valoper(OP0)))[1].amount).to.equal(60n * E18);

      // a second before completion nothing comes back; at completion the 40 coins do
      const mid = await balance(ALICE);
      await chain.h.request("evm_setNextBlockTimestamp", [`0x${(at + UNBONDING - 1n).toString(16)}`]);
      await chain.h.request("evm_mine", []);
      expect(await balance(ALICE)).to.equal(mid);
      await chain.h.request("evm_mine", []);
      expect(await balance(ALICE)).to.equal(mid + 40n * E18);
      expect(await balance(NOT_BONDED_POOL)).to.equal(0n);
      expect((await s.unbondingDelegation(ALICE, valoper(OP0)))[2].length).to.equal(0);
      const events = await chain.h.request<{ end_block_events: Array<{ type: string; attributes: Array<{ key: string; value: string }> }> }>("epochs_blockEvents", ["latest"]);
      const done = events.end_block_events.find((e) => e.type === "complete_unbonding");
      expect(done?.attributes).to.deep.equal([
        { key: "amount", value: `${40n * E18}atest` },
        { key: "validator", value: OP0 },
        { key: "delegator", value: ALICE },
      ]);
    });

    it("redelegates at once and refuses a second hop before the first completes; cancels part of an unbonding", async () => {
      const s = await staking();
      await (await s.delegate(ALICE, valoper(OP0), 100n * E18)).wait();
      const r = await (await s.redelegate(ALICE, valoper(OP0), valoper(OP1), 30n * E18)).wait();
      const at = BigInt((await chain.provider.getBlock(r!.blockNumber))!.timestamp);
      const ev = eventOf(s, r, "Redelegate");
      expect(ev).to.deep.equal([ALICE, OP0, OP1, 30n * E18, at + UNBONDING]);
      expect((await s.delegation(ALICE, valoper(OP0)))[1].amount).to.equal(70n * E18);
      expect((await s.delegation(ALICE, valoper(OP1)))[1].amount).to.equal(30n * E18);
      expect((await s.validator(OP1)).tokens).to.equal(530n * E18);
      const red = await s.redelegation(ALICE, valoper(OP0), valoper(OP1));
      expect(red[3].map((e: { initialBalance: bigint; sharesDst: bigint; completionTime: bigint }) => [e.initialBalance, e.sharesDst, e.completionTime])).to.deep.equal([
        [30n * E18, 30n * E18 * E18, at + UNBONDING],
      ]);
      await expect(s.redelegate.staticCall(ALICE, valoper(OP1), valoper(OP0), 10n * E18)).to.be.rejectedWith(
        "redelegation to this validator already in progress; first redelegation to this validator must complete before next redelegation",
      );
      await expect(s.redelegate.staticCall(ALICE, valoper(OP0), valoper(OP0), 10n * E18)).to.be.rejectedWith("cannot redelegate to the same validator");

      const un = await (await s.undelegate(ALICE, valoper(OP0), 20n * E18)).wait();
      await (await s.cancelUnbondingDelegation(ALICE, valoper(OP0), 15n * E18, un!.blockNumber)).wait();
      expect((await s.delegation(ALICE, valoper(OP0)))[1].amount).to.equal(65n * E18);
      const entries = (await s.unbondingDelegation(ALICE, valoper(OP0)))[2];
      expect(entries.map((e: { initialBalance: bigint; balance: bigint }) => [e.initialBalance, e.balance])).to.deep.equal([[20n * E18, 5n * E18]]);
      await expect(s.cancelUnbondingDelegation.staticCall(ALICE, valoper(OP0), 6n * E18, un!.blockNumber)).to.be.rejectedWith("amount is greater than the unbonding delegation entry balance");
    });

    it("mints at each epoch end and shares by tokens and commission, paying whole coins on withdrawal", async () => {
      const s = await staking();
      const d = await distribution();
      await (await s.delegate(ALICE, valoper(OP0), 100n * E18)).wait();
      // the next minute's end: 10 coins; 2 % community tax leaves 9.8, split 1100:500 by tokens
      // validator 0: 9.8 × 1100/1600 = 6.7375 coins; commission 10 % = 0.67375; delegators 6.06375
      // per token: 6.06375/1100 = 0.005512500000000000; Alice's 100 tokens: 0.55125 coins
      await chain.h.request("evm_mine", [Number((await time()) + 60n)]);
      const [rewards] = [await d.delegationRewards(ALICE, valoper(OP0))];
      // DecCoins as cosmos/evm answers them: the whole amount (TruncateInt), precision 18
      expect(rewards.map((c: { denom: string; amount: bigint; precision: bigint }) => [c.denom, c.amount, c.precision])).to.deep.equal([["atest", 551_250_000_000_000_000n, 18n]]);
      const commission = await d.validatorCommission(valoper(OP0));
      expect(commission[0].amount).to.equal(673_750_000_000_000_000n);
      // validator 1: 9.8 × 500/1600 = 3.0625, commission 5 % = 0.153125
      expect((await d.validatorCommission(valoper(OP1)))[0].amount).to.equal(153_125_000_000_000_000n);
      expect((await d.communityPool())[0].amount).to.equal(200_000_000_000_000_000n);
      expect(await balance(DISTRIBUTION_ACCOUNT)).to.equal(10n * E18);
      const [perValidator, total] = await d.delegationTotalRewards(ALICE);
      expect(perValidator.map((r: { validatorAddress: string }) => r.validatorAddress)).to.deep.equal([valoper(OP0)]);
      expect(total[0].amount).to.equal(551_250_000_000_000_000n);
      expect(await d.delegatorValidators(ALICE)).to.deep.equal([valoper(OP0)]);

      // a withdrawal pays the whole coins to the withdraw address, here another account
      await (await d.setWithdrawAddress(ALICE, account(OP1))).wait();
      expect(await d.delegatorWithdrawAddress(ALICE)).to.equal(account(OP1));
      const op1 = await balance(OP1);
      const w = await (await d.withdrawDelegatorRewards(ALICE, valoper(OP0))).wait();
      const ev = eventOf(d, w, "WithdrawDelegatorReward");
      expect(ev).to.deep.equal([ALICE, OP0, 551_250_000_000_000_000n]);
      expect(await balance(OP1)).to.equal(op1 + 551_250_000_000_000_000n);
      expect(await d.delegationRewards(ALICE, valoper(OP0))).to.deep.equal([]);

      // the operator withdraws its commission (whole wei); a stranger may not
      const opD = await distribution(OP0);
      await expect(d.withdrawValidatorCommission.staticCall(valoper(OP0))).to.be.rejectedWith(`msg.sender address ${ALICE} does not match the requester address ${OP0}`);
      const opBefore = await balance(OP0);
      const tx = await opD.withdrawValidatorCommission(valoper(OP0));
      const paid = await fee(tx);
      expect(await balance(OP0)).to.equal(opBefore + 673_750_000_000_000_000n - paid);
    });

    it("refuses wrong input with cosmos/evm's words and applies nothing of a failed call", async () => {
      const s = await staking();
      const unknown = valoper("0x000000000000000000000000000000000000bEEF");
      await expect(s.delegate.staticCall(ALICE, unknown, E18)).to.be.rejectedWith("validator does not exist");
      await expect(s.delegate.staticCall(ALICE, valoper(OP0), 20_000n * E18)).to.be.rejectedWith(`spendable balance`);
      await expect(s.delegate.staticCall(OP0, valoper(OP0), E18)).to.be.rejectedWith(`msg.sender address ${ALICE} does not match the requester address ${OP0}`);
      await expect(s.delegate.staticCall(ALICE, account(OP0), E18)).to.be.rejectedWith("invalid validator address: invalid Bech32 prefix; expected cosmosvaloper, got cosmos: invalid address");
      await expect(s.undelegate.staticCall(ALICE, valoper(OP0), E18)).to.be.rejectedWith("no delegation for (address, validator) tuple");
      await expect(s.delegate.staticCall(ALICE, valoper(OP0), 0n)).to.be.rejectedWith("invalid delegation amount");
      const d = await distribution();
      await expect(d.withdrawDelegatorRewards.staticCall(ALICE, valoper(OP0))).to.be.rejectedWith("no delegation distribution info");
      await expect(d.withdrawDelegatorRewards.staticCall(ALICE, unknown)).to.be.rejectedWith("no validator distribution info");
      await expect(d.delegationRewards(ALICE, valoper(OP0))).to.be.rejectedWith("delegation does not exist");
      await expect(d.claimRewards.staticCall(ALICE, 101)).to.be.rejectedWith("maxRetrieve (101) parameter exceeds the maximum number of validators (100)");
      // no delegation: claiming claims nothing, without an error
      expect(await d.claimRewards.staticCall(ALICE, 5)).to.equal(true);
      // a failed transaction leaves no delegation and no coins moved
      const before = await balance(BONDED_POOL);
      const tx = await s.delegate(ALICE, valoper(OP0), 20_000n * E18, { gasLimit: 500_000 }).catch((e: Error) => e);
      if (!(tx instanceof Error)) await tx.wait().catch(() => undefined);
      expect(await balance(BONDED_POOL)).to.equal(before);
      expect((await s.delegation(ALICE, valoper(OP0)))[0]).to.equal(0n);
    });
  });
}

for (const make of harnesses()) {
  describe(`x/staking's exchange rate after a slash to zero, over ${make.name}`, function () {
    it("refuses a delegation to a validator with no tokens left but shares (InvalidExRate), and the delegator keeps its coins", async () => {
      const chain = await open(make);
      try {
        const s = new Contract(STAKING, STAKING_ABI, await chain.signer(ALICE));
        await chain.h.request("cosmos_slashValidator", [OP1, "1"]);
        const v = await s.validator(OP1);
        expect([v.tokens, v.delegatorShares]).to.deep.equal([0n, 500n * E18 * E18]);
        const before = await chain.provider.getBalance(ALICE);
        await expect(s.delegate.staticCall(ALICE, valoper(OP1), 100n * E18)).to.be.rejectedWith("cannot delegate to validators with invalid (zero) ex-rate");
        const tx = await s.delegate(ALICE, valoper(OP1), 100n * E18, { gasLimit: 500_000 }).catch((e: Error) => e);
        if (!(tx instanceof Error)) expect((await tx.wait().catch(() => null))?.status ?? 0).to.equal(0);
        expect((await s.delegation(ALICE, valoper(OP1)))[0]).to.equal(0n);
        expect(before - (await chain.provider.getBalance(ALICE))).to.be.lessThan(E18 / 100n); // gas only
        // a redelegation into it is refused the same way; out of it there is nothing to take by amount
        await (await s.delegate(ALICE, valoper(OP0), 10n * E18)).wait();
        await expect(s.redelegate.staticCall(ALICE, valoper(OP0), valoper(OP1), E18)).to.be.rejectedWith("cannot delegate to validators with invalid (zero) ex-rate");
        const operator = new Contract(STAKING, STAKING_ABI, await chain.signer(OP1));
        await expect(operator.undelegate.staticCall(OP1, valoper(OP1), E18)).to.be.rejectedWith("insufficient delegation shares: invalid request");
      } finally {
        await chain.close();
      }
    });
  });
}

describe("x/staking's share arithmetic (vectors from the Cosmos SDK's validator tests and LegacyDec)", () => {
  const val = (tokens: bigint, shares: bigint) => ({ tokens, delegatorShares: shares }) as unknown as Parameters<typeof StakingKeeper.tokensFromShares>[0];
  it("TokensFromShares then TruncateInt (TestShareTokens, TestRemoveDelShares)", () => {
    expect(StakingKeeper.tokensFromShares(val(100n, 100n * E18), 50n * E18)).to.equal(50n);
    expect(StakingKeeper.tokensFromShares(val(50n, 100n * E18), 50n * E18)).to.equal(25n);
    expect(StakingKeeper.tokensFromShares(val(50n, 100n * E18), 10n * E18)).to.equal(5n);
    expect(StakingKeeper.tokensFromShares(val(5102n, 115n * E18), 29n * E18)).to.equal(1286n);
    // LegacyDec's Quo rounds the quotient at 18 decimals (half to even) before TruncateInt:
    // (10 shares − 1e-18) of 10 shares worth 1 token is 0.9999999999999999999 → 1.000000000000000000 → 1
    expect(StakingKeeper.tokensFromShares(val(1n, 10n * E18), 10n * E18 - 1n)).to.equal(1n);
    expect(StakingKeeper.tokensFromShares(val(1n, 10n * E18), 9n * E18)).to.equal(0n);
  });
  it("AddTokensFromDel: one share per token while the validator has no shares, else QuoInt (TestAddTokensFromDel)", () => {
    expect(StakingKeeper.sharesFromTokens(val(0n, 0n), 6n)).to.equal(6n * E18);
    expect(StakingKeeper.sharesFromTokens(val(6n, 6n * E18), 3n)).to.equal(3n * E18);
    // tokens but no shares (every delegator left, tokens remained): the rate starts over at one
    expect(StakingKeeper.sharesFromTokens(val(7n, 0n), 3n)).to.equal(3n * E18);
    // QuoInt truncates: 100 shares over 3 tokens, 1 token → 33.333333333333333333
    expect(StakingKeeper.sharesFromTokens(val(3n, 100n * E18), 1n)).to.equal(33_333_333_333_333_333_333n);
  });
  it("InvalidExRate: no tokens and some shares, nothing else", () => {
    expect(StakingKeeper.invalidExRate(val(0n, 1n))).to.equal(true);
    expect(StakingKeeper.invalidExRate(val(0n, 0n))).to.equal(false);
    expect(StakingKeeper.invalidExRate(val(5n, 0n))).to.equal(false);
  });
});

for (const make of harnesses()) {
  describe(`a contract that stakes through the precompiles over ${make.name}`, function () {
    let chain: Chain;
    let staker: Contract;
    beforeEach(async () => {
      chain = await open(make);
      const artifact = await artifacts.readArtifact("Staker");
      const signer = await chain.signer(ALICE);
      staker = (await new ContractFactory(artifact.abi, artifact.bytecode, signer).deploy()) as unknown as Contract;
      await staker.waitForDeployment();
      await (await signer.sendTransaction({ to: await staker.getAddress(), value: 50n * E18 })).wait();
    });
    afterEach(async () => {
      await chain.close();
    });

    it("stakes its own balance, and a reverted call leaves nothing staked", async () => {
      const address = await staker.getAddress();
      await (await staker.stake(valoper(OP0), 20n * E18)).wait();
      expect(await chain.provider.getBalance(address)).to.equal(30n * E18);
      expect(await staker.staked(valoper(OP0))).to.deep.equal([20n * E18 * E18, 20n * E18]);
      await expect(staker.stakeThenRevert.staticCall(valoper(OP0), E18)).to.be.rejectedWith("changed my mind");
      const [ok, reason] = await staker.tryStake.staticCall(valoper(OP0), 100n * E18);
      expect([ok, reason]).to.deep.equal([false, `spendable balance ${30n * E18}atest is smaller than ${100n * E18}atest: insufficient funds`]);
      await expect(staker.stakeFor.staticCall(ALICE, valoper(OP0), E18)).to.be.rejectedWith(`msg.sender address ${address} does not match the requester address ${ALICE}`);
      expect(await staker.staked(valoper(OP0))).to.deep.equal([20n * E18 * E18, 20n * E18]);
      // a delegation inside a STATICCALL reverts with the EVM's words, as cosmos/evm's does
      const [static_, data] = await staker.stakeInStaticCall(valoper(OP0), E18);
      expect([static_, new Interface(["error Error(string)"]).decodeErrorResult("Error", data)[0]]).to.deep.equal([false, "write protection"]);
    });

    it("unstakes and moves its stake: completion times and its balance back at maturity", async () => {
      const address = await staker.getAddress();
      await (await staker.stake(valoper(OP0), 20n * E18)).wait();
      const moved = await (await staker.move(valoper(OP0), valoper(OP1), 5n * E18)).wait();
      const movedAt = BigInt((await chain.provider.getBlock(moved!.blockNumber))!.timestamp);
      const staking = new Contract(STAKING, STAKING_ABI, chain.provider);
      expect(eventOf(staking, moved, "Redelegate")).to.deep.equal([address, OP0, OP1, 5n * E18, movedAt + UNBONDING]);
      const un = await (await staker.unstake(valoper(OP1), 2n * E18)).wait();
      const at = BigInt((await chain.provider.getBlock(un!.blockNumber))!.timestamp);
      expect(eventOf(staking, un, "Unbond")).to.deep.equal([address, OP1, 2n * E18, at + UNBONDING]);
      expect(await staker.staked(valoper(OP0))).to.deep.equal([15n * E18 * E18, 15n * E18]);
      expect(await staker.staked(valoper(OP1))).to.deep.equal([3n * E18 * E18, 3n * E18]);
      expect(await chain.provider.getBalance(address)).to.equal(30n * E18);
      // the unbonding completes in the first block at or after its completion time
      await chain.h.request("evm_mine", [Number(at + UNBONDING)]);
      expect(await chain.provider.getBalance(address)).to.equal(32n * E18);
    });

    it("claims its rewards from an epochs hook at every minute's end", async () => {
      await (await staker.stake(valoper(OP0), 20n * E18)).wait();
      await (await staker.watch("minute")).wait();
      const address = (await staker.getAddress()).toLowerCase();
      // a block a minute after the last, three times: one minute end each, whose hook call logs its claim
      const claimedLogs: unknown[] = [];
      for (let i = 0; i < 3; i++) {
        const { timestamp } = await chain.h.request<{ timestamp: string }>("eth_getBlockByNumber", ["latest", false]);
        await chain.h.request("evm_mine", [Number(BigInt(timestamp) + 60n)]);
        const events = await chain.h.request<{ begin_block_events: Array<{ type: string; logs?: Array<{ address: string; topics: string[]; data: string }> }> }>("epochs_blockEvents", ["latest"]);
        const hook = events.begin_block_events.find((e) => e.type === "epoch_hook" && e.logs !== undefined && e.logs.length > 0);
        for (const log of hook?.logs ?? []) {
          const parsed = log.address.toLowerCase() === address.toLowerCase() ? staker.interface.parseLog(log) : null;
          if (parsed !== null) claimedLogs.push([...parsed.args]);
        }
      }
      // each minute: validator 0 gets 9.8 × 1020/1520 coins, its delegators 90 % of that by 1020 tokens:
      // per token 9.8 × 0.9 / 1520 = 0.005802631578947368 (truncated); 20 tokens: 0.11605263157894736 coins
      const each = 116_052_631_578_947_360n;
      expect(claimedLogs).to.deep.equal([
        ["minute", 1n, each],
        ["minute", 2n, each],
        ["minute", 3n, each],
      ]);
      expect(await staker.claims()).to.equal(3n);
      expect(await staker.claimed()).to.equal(3n * each);
      expect(await chain.provider.getBalance(address)).to.equal(30n * E18 + 3n * each);
    });
  });
}
