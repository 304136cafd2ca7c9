/**
 * Every amount is a uint256: a coin's balance and supply (src/cosmos/common/coins.ts `coinAmount`, the
 * Cosmos SDK's `math.Int` limit) and every EVM balance the chain writes (src/chain/engine/state-manager.ts
 * `putAccount`). Two mints once gave a 257-bit balance: the BALANCE opcode then threw out of the EVM,
 * `balanceOf` failed and the node's dump did not load back. And the helpers read what they are given
 * as an amount, or refuse it by name (a decimal string was once read as hex).
 */
import { expect } from "chai";
import hre from "hardhat";
import { serveHttp } from "../helpers/http";
import { CLIENT_VERSION, type Harness, rpcError, testChainConfig } from "../helpers/harness";
import { createRuntime } from "../../src/app/runtime";
import { CosmosHelpers } from "../../src/host/helpers/cosmos-helpers";
import { NATIVE_ERC20 } from "../../src/cosmos/bank/precompile";
import { ERC20_ABI } from "../../src/cosmos/erc20/precompile";

const MAX = (1n << 256n) - 1n;
const A = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266";
const B = "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC";
const hex = (n: bigint): string => `0x${n.toString(16)}`;

describe("amounts past 2^256-1 are refused where they would be made (over HTTP)", function () {
  let h: Harness;
  beforeEach(async () => {
    h = await serveHttp({ chain: testChainConfig({ throwOnTransactionFailures: false }), epochs: { profile: "cosmos-evm" } });
  });
  afterEach(async () => h.close());

  it("a native mint on top of a balance: refused with the SDK's words; the balance, balanceOf and a dump stay whole", async () => {
    const before = BigInt(await h.request<string>("eth_getBalance", [B, "latest"]));
    const err = await rpcError(h.request("cosmos_mintCoins", [B, "atest", hex(MAX)]));
    expect(err.message).to.match(/Int overflow/);
    expect(BigInt(await h.request<string>("eth_getBalance", [B, "latest"]))).to.equal(before);
    // a balance at the limit (a dev setter: the supply would refuse a mint of it) reads back, through
    // the BALANCE opcode too (the WERC20's balanceOf), and takes no more
    await h.request("hardhat_setBalance", [B, hex(MAX)]);
    expect(BigInt(await h.request<string>("eth_getBalance", [B, "latest"]))).to.equal(MAX);
    const out = await h.request<string>("eth_call", [{ to: NATIVE_ERC20, data: ERC20_ABI.encodeFunctionData("balanceOf", [B]) }, "latest"]);
    expect(ERC20_ABI.decodeFunctionResult("balanceOf", out)[0]).to.equal(MAX);
    expect((await rpcError(h.request("cosmos_mintCoins", [B, "atest", "0x1"]))).message).to.match(/Int overflow/);
    const dump = await h.request<string>("hardhat_dumpState");
    expect(await h.request("hardhat_loadState", [dump])).to.equal(true);
  });

  it("another coin's balance and supply: the second mint past the limit is refused", async () => {
    await h.request("cosmos_mintCoins", [A, "ujuno", hex(MAX)]);
    expect((await rpcError(h.request("cosmos_mintCoins", [A, "ujuno", "0x1"]))).message).to.match(/Int overflow/);
    // the supply bounds it too: the same denom to another holder
    expect((await rpcError(h.request("cosmos_mintCoins", [B, "ujuno", "0x1"]))).message).to.match(/Int overflow/);
    const cosmos = new CosmosHelpers((method, params = []) => h.request(method, params));
    expect(await cosmos.balance(A, "ujuno")).to.equal(MAX);
    expect(await cosmos.balance(B, "ujuno")).to.equal(0n);
  });

  it("an IBC transfer received on top of a full balance is refused; the node keeps mining", async () => {
    const cosmos = new CosmosHelpers((method, params = []) => h.request(method, params));
    await cosmos.receiveTransfer({ channel: "channel-0", denom: "uatom", amount: MAX, receiver: A });
    const refused = await rpcError(cosmos.receiveTransfer({ channel: "channel-0", denom: "uatom", amount: 1n, receiver: A }));
    expect(refused.message).to.match(/Int overflow/);
    const n = BigInt(await h.request<string>("eth_blockNumber"));
    await h.request("evm_mine");
    expect(BigInt(await h.request<string>("eth_blockNumber"))).to.equal(n + 1n);
  });
});

describe("every EVM balance the chain writes is a uint256 (the state manager's putAccount)", function () {
  it("a genesis account funded past 2^256-1 stops the chain's start with the account named", async () => {
    const chain = testChainConfig();
    const accounts = [{ ...chain.accounts[0], balance: MAX + 1n }];
    const err = await rpcError(createRuntime({ chain: { ...chain, accounts }, clientVersion: CLIENT_VERSION }));
    expect(err.message).to.match(new RegExp(`the balance of ${A.toLowerCase()} would be ${MAX + 1n}, past 2\\^256-1`));
  });
});

describe("the helpers read amounts as given, or refuse them by name", function () {
  let h: Harness;
  let cosmos: CosmosHelpers;
  before(async () => {
    h = await serveHttp({ epochs: { profile: "cosmos-evm" } });
    cosmos = new CosmosHelpers((method, params = []) => h.request(method, params));
  });
  after(async () => h.close());

  it("a decimal string, a safe integer and a bigint are the same amount", async () => {
    await cosmos.mintCoins(A, "ujuno", "10");
    await cosmos.mintCoins(A, "ujuno", 10);
    await cosmos.mintCoins(A, "ujuno", 10n);
    expect(await cosmos.balance(A, "ujuno")).to.equal(30n);
    const got = await cosmos.receiveTransfer({ channel: "channel-0", denom: "uosmo", amount: "1000000", receiver: B });
    expect(await cosmos.balance(B, got.denom)).to.equal(1_000_000n);
  });

  it("anything else is refused before it reaches the chain, naming the argument", async () => {
    const bad: Array<[() => Promise<unknown>, RegExp]> = [
      [() => cosmos.mintCoins(A, "ujuno", "0x10"), /^amount: expected a bigint, a safe integer or a decimal string, got "0x10" \(string\)$/],
      [() => cosmos.mintCoins(A, "ujuno", 1.5), /^amount: .*got 1\.5 \(number\)$/],
      [() => cosmos.mintCoins(A, "ujuno", -1n), /^amount: -1 is negative$/],
      [() => cosmos.receiveTransfer({ channel: "channel-0", denom: "uatom", amount: "1e6", receiver: A }), /^amount: .*"1e6"/],
      [() => cosmos.addValidator({ operator: B, tokens: "ten" }), /^tokens: /],
      [() => cosmos.acknowledge("channel-0", "x"), /^sequence: /],
    ];
    for (const [call, message] of bad) expect((await rpcError(call())).message).to.match(message);
  });

  it("hre.epochs.cosmos refuses the same way (the helpers both hosts hand to tests)", async () => {
    const helpers = (hre as unknown as { epochs: { cosmos: CosmosHelpers } }).epochs.cosmos;
    expect((await rpcError(helpers.mintCoins(A, "ujuno", "0x10"))).message).to.match(/^amount: expected a bigint/);
  });
});
