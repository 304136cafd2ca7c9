/**
 * x/erc20's token pairs as cosmos/evm runs them (src/cosmos/erc20*.ts): the native coin's WERC20 at
 * WEVMOS's address and an IBC voucher's ERC-20 precompile at its hash's address, driven through a
 * Solidity contract and raw transactions on every transport; their balances are the bank's (the
 * EVM balance, `cosmos_balances`, the bank REST route and precompile), their gas cosmos/evm's flat
 * prices, their failures its texts. Then the pairs as chain state: evm_revert, a dump loaded into a
 * new node, a LevelDB home reopened, and genesis coins from the config.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect } from "chai";
import { AbiCoder, Interface, getAddress, getBytes } from "ethers";
import { BANK_ABI, NATIVE_ERC20 } from "../../../src/cosmos/bank/precompile";
import { ERC20_ABI, WERC20_ABI } from "../../../src/cosmos/erc20/precompile";
import { CosmosHelpers } from "../../../src/host/helpers/cosmos-helpers";
import { EpochsConfigError, cosmosOptionsFromConfig, resolveEpochsConfig } from "../../../src/host/settings/epochs-config";
import { LevelKV } from "../../../src/storage/level-kv";
import type { RuntimeOptions } from "../../../src/app/runtime";
import { type Harness, inProcess, rpcError } from "../../helpers/harness";
import { harnesses } from "../../helpers/matrix";
import { compile } from "../../helpers/solc";

const E18 = 10n ** 18n;
const BANK = "0x0000000000000000000000000000000000000804";
const A = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266";
const B = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
// ATOM over Osmosis's channel-0, as Cosmos chains name the voucher: ibc/ and sha256("transfer/channel-0/uatom")
const ATOM = "ibc/27394FB092D2ECCD56123C74F36E4C1F926001CEADA9CA97EA622B25F41E5EB2";
// cosmos/evm's address of it: the hash's last 20 bytes
const ATOM_ERC20 = getAddress("0xf36e4c1f926001ceada9ca97ea622b25f41e5eb2");
const ATOM_META = { name: "Cosmos Hub Atom", symbol: "ATOM", decimals: 6 };
const COSMOS: Partial<RuntimeOptions> = { epochs: { profile: "cosmos-evm" } };
const q = (n: bigint): string => `0x${n.toString(16)}`;

const USER = compile(`${readFileSync(path.join(__dirname, "../../../contracts/precompiles/IWERC20.sol"), "utf8")}
contract PairUser {
    function deposit(address w) external payable { IWERC20(w).deposit{value: msg.value}(); }
    function withdraw(address w, uint256 wad) external { IWERC20(w).withdraw(wad); }
    function pull(address token, address from, uint256 amount) external { require(IERC20Precompile(token).transferFrom(from, address(this), amount)); }
    function send(address token, address to, uint256 amount) external { require(IERC20Precompile(token).transfer(to, amount)); }
    function balanceOf(address token, address who) external view returns (uint256) { return IERC20Precompile(token).balanceOf(who); }
    function staticTransfer(address token, address to) external view returns (bool ok, bytes memory data) {
        (ok, data) = token.staticcall(abi.encodeCall(IERC20Precompile.transfer, (to, 1)));
    }
    receive() external payable {}
}
`).PairUser;
const user = new Interface(USER.abi as never);

interface Receipt {
  status: string;
  gasUsed: string;
  logs: Array<{ address: string; topics: string[]; data: string }>;
  contractAddress: string | null;
}

/** EIP-2028's calldata price: what a transaction's input adds to its 21,000. */
const calldataGas = (data: string): bigint => getBytes(data).reduce((g, b) => g + (b === 0 ? 4n : 16n), 0n);
/** A transaction's gas when its execution used `execution` (Prague's EIP-7623 floor: 10 per calldata token). */
const txGas = (data: string, execution: bigint): bigint => {
  const floor = 21_000n + 10n * getBytes(data).reduce((t, b) => t + (b === 0 ? 1n : 4n), 0n);
  const used = 21_000n + calldataGas(data) + execution;
  return used > floor ? used : floor;
};

function chainOf(h: Harness) {
  const tx = async (from: string, to: string, data: string, value = 0n): Promise<Receipt> => {
    const hash = await h.request<string>("eth_sendTransaction", [{ from, to, data, value: q(value), gas: q(2_000_000n) }]);
    return h.request<Receipt>("eth_getTransactionReceipt", [hash]);
  };
  const call = (to: string, data: string, from = A, value = 0n) => h.request<string>("eth_call", [{ from, to, data, value: q(value) }, "latest"]);
  const erc20 = async (token: string, fn: string, args: unknown[] = []) => WERC20_ABI.decodeFunctionResult(fn, await call(token, WERC20_ABI.encodeFunctionData(fn, args)))[0] as unknown;
  const balance = async (a: string) => BigInt(await h.request<string>("eth_getBalance", [a, "latest"]));
  const coins = (a: string) => h.request<Array<{ denom: string; amount: string }>>("cosmos_balances", [a]);
  const revertReason = async (to: string, data: string, from = A, value = 0n) => (await rpcError(call(to, data, from, value))).message;
  return { tx, call, erc20, balance, coins, revertReason };
}

async function deployUser(h: Harness): Promise<string> {
  const hash = await h.request<string>("eth_sendTransaction", [{ from: A, data: USER.bytecode }]);
  return (await h.request<Receipt>("eth_getTransactionReceipt", [hash])).contractAddress as string;
}

const topicOf = (abi: Interface, event: string) => abi.getEvent(event)?.topicHash;
const word = (a: string) => AbiCoder.defaultAbiCoder().encode(["address"], [a]);

for (const make of harnesses()) {
  describe(`x/erc20's token pairs under cosmos-evm, over ${make.name}`, function () {
    this.timeout(60_000);
    let h: Harness;
    beforeEach(async () => {
      h = await make.create(COSMOS);
    });
    afterEach(() => h?.close());

    it("WERC20 is the native coin: deposit, withdraw, transfer, approve and transferFrom keep one balance, at cosmos/evm's gas", async () => {
      const c = chainOf(h);
      expect([await c.erc20(NATIVE_ERC20, "name"), await c.erc20(NATIVE_ERC20, "symbol"), await c.erc20(NATIVE_ERC20, "decimals")]).to.deep.equal(["Test Token", "TEST", 18n]);
      expect(await h.request("eth_getCode", [NATIVE_ERC20, "latest"])).to.equal("0xfe");
      expect(await c.erc20(NATIVE_ERC20, "balanceOf", [A])).to.equal(await c.balance(A));

      // transfer: a bank send of the native coin, 9,000 gas on top of the transaction's intrinsic gas
      const bBefore = await c.balance(B);
      const data = WERC20_ABI.encodeFunctionData("transfer", [B, 3n * E18]);
      const sent = await c.tx(A, NATIVE_ERC20, data);
      expect(BigInt(sent.gasUsed)).to.equal(txGas(data, 9_000n));
      expect(sent.logs.map((l) => [l.address.toLowerCase(), l.topics])).to.deep.equal([[NATIVE_ERC20.toLowerCase(), [topicOf(WERC20_ABI, "Transfer"), word(A), word(B)]]]);
      expect(await c.balance(B)).to.equal(bBefore + 3n * E18);
      expect(await c.erc20(NATIVE_ERC20, "balanceOf", [B])).to.equal(bBefore + 3n * E18);
      expect(await c.coins(B)).to.deep.equal([{ denom: "atest", amount: (bBefore + 3n * E18).toString() }]);

      // approve 8,100; transferFrom by a contract: Transfer, then Approval of what is left
      const userAddr = await deployUser(h);
      const approve = WERC20_ABI.encodeFunctionData("approve", [userAddr, 5n * E18]);
      expect(BigInt((await c.tx(A, NATIVE_ERC20, approve)).gasUsed)).to.equal(txGas(approve, 8_100n));
      expect(await c.erc20(NATIVE_ERC20, "allowance", [A, userAddr])).to.equal(5n * E18);
      const pulled = await c.tx(B, userAddr, user.encodeFunctionData("pull", [NATIVE_ERC20, A, 2n * E18]));
      expect(pulled.status).to.equal("0x1");
      expect(pulled.logs.map((l) => l.topics[0])).to.deep.equal([topicOf(WERC20_ABI, "Transfer"), topicOf(WERC20_ABI, "Approval")]);
      expect(BigInt(pulled.logs[1].data)).to.equal(3n * E18);
      expect(await c.balance(userAddr)).to.equal(2n * E18);
      expect(await c.erc20(NATIVE_ERC20, "allowance", [A, userAddr])).to.equal(3n * E18);
      // approving 0 removes the allowance
      await c.tx(A, NATIVE_ERC20, WERC20_ABI.encodeFunctionData("approve", [userAddr, 0n]));
      expect(await c.erc20(NATIVE_ERC20, "allowance", [A, userAddr])).to.equal(0n);
      expect(await c.revertReason(userAddr, user.encodeFunctionData("pull", [NATIVE_ERC20, A, 1n]), B)).to.include("ERC20: insufficient allowance");

      // deposit from a contract: the value comes back to it (one balance), Deposit names it
      const deposited = await c.tx(A, userAddr, user.encodeFunctionData("deposit", [NATIVE_ERC20]), E18);
      expect(deposited.logs.map((l) => [l.address.toLowerCase(), l.topics])).to.deep.equal([[NATIVE_ERC20.toLowerCase(), [topicOf(WERC20_ABI, "Deposit"), word(userAddr)]]]);
      expect(BigInt(deposited.logs[0].data)).to.equal(E18);
      expect(await c.balance(userAddr)).to.equal(3n * E18);
      expect(await c.balance(NATIVE_ERC20)).to.equal(0n);
      // a plain transfer of value is a deposit through receive: 23,878 gas, the sender keeps its coins but the gas
      const aBefore = await c.balance(A);
      const received = await c.tx(A, NATIVE_ERC20, "0x", 7n);
      expect(BigInt(received.gasUsed)).to.equal(21_000n + 23_878n);
      expect(received.logs[0].topics[0]).to.equal(topicOf(WERC20_ABI, "Deposit"));
      const gasPrice = BigInt(
        (await h.request<{ effectiveGasPrice: string }>("eth_getTransactionReceipt", [(await h.request<{ transactions: string[] }>("eth_getBlockByNumber", ["latest", false])).transactions[0]]))
          .effectiveGasPrice,
      );
      expect(await c.balance(A)).to.equal(aBefore - (21_000n + 23_878n) * gasPrice);

      // withdraw checks the balance and emits Withdrawal; the coins stay where they are
      const withdrawn = await c.tx(A, userAddr, user.encodeFunctionData("withdraw", [NATIVE_ERC20, 2n * E18]));
      expect(withdrawn.logs.map((l) => l.topics)).to.deep.equal([[topicOf(WERC20_ABI, "Withdrawal"), word(userAddr)]]);
      expect(await c.balance(userAddr)).to.equal(3n * E18);
      expect(await c.revertReason(userAddr, user.encodeFunctionData("withdraw", [NATIVE_ERC20, 4n * E18]))).to.include(`account balance ${3n * E18} is lower than withdraw balance ${4n * E18}`);
    });

    it("answers with cosmos/evm's failure texts: too little balance, a transfer of nothing, a write in a static call", async () => {
      const c = chainOf(h);
      const poor = "0x000000000000000000000000000000000000bEEF";
      expect(await c.revertReason(NATIVE_ERC20, WERC20_ABI.encodeFunctionData("transfer", [B, 1n]), poor)).to.include("ERC20: transfer amount exceeds balance");
      expect(await c.revertReason(NATIVE_ERC20, WERC20_ABI.encodeFunctionData("transfer", [B, 0n]))).to.include("coin 0atest amount is not positive");
      const userAddr = await deployUser(h);
      const [ok, out] = user.decodeFunctionResult("staticTransfer", await c.call(userAddr, user.encodeFunctionData("staticTransfer", [NATIVE_ERC20, B])));
      expect(ok).to.equal(false);
      expect(new Interface(["error Error(string)"]).decodeErrorResult("Error", out as string)[0]).to.equal("write protection");
      // WERC20 takes input naming no method as a deposit (its fallback), priced at 0 beyond the call
      expect(await c.call(NATIVE_ERC20, "0x12345678")).to.equal("0x");
      const unknown = await c.tx(A, NATIVE_ERC20, "0x12345678", 3n);
      expect(BigInt(unknown.gasUsed)).to.equal(txGas("0x12345678", 0n));
      expect(unknown.logs[0].topics[0]).to.equal(topicOf(WERC20_ABI, "Deposit"));
    });

    it("an IBC voucher registered as a pair is an ERC-20 over its bank balance; unregistered, its address is an empty account", async () => {
      const c = chainOf(h);
      const cosmos = new CosmosHelpers((method, params = []) => h.request(method, params));
      expect(await h.request("eth_getCode", [ATOM_ERC20, "latest"])).to.equal("0x");
      expect(await c.call(ATOM_ERC20, ERC20_ABI.encodeFunctionData("balanceOf", [A]))).to.equal("0x");
      expect(await cosmos.registerCoin(ATOM, ATOM_META)).to.deep.equal({ erc20_address: ATOM_ERC20, denom: ATOM, enabled: true, contract_owner: "OWNER_MODULE" });
      expect(await h.request("eth_getCode", [ATOM_ERC20, "latest"])).to.equal("0xfe");
      await cosmos.mintCoins(A, ATOM, 5_000_000n);
      expect([await c.erc20(ATOM_ERC20, "name"), await c.erc20(ATOM_ERC20, "symbol"), await c.erc20(ATOM_ERC20, "decimals"), await c.erc20(ATOM_ERC20, "totalSupply")]).to.deep.equal([
        "Cosmos Hub Atom",
        "ATOM",
        6n,
        5_000_000n,
      ]);
      expect(await c.erc20(ATOM_ERC20, "balanceOf", [A])).to.equal(5_000_000n);

      const userAddr = await deployUser(h);
      await c.tx(A, ATOM_ERC20, ERC20_ABI.encodeFunctionData("transfer", [userAddr, 2_000_000n]));
      const sent = await c.tx(A, userAddr, user.encodeFunctionData("send", [ATOM_ERC20, B, 500_000n]));
      expect(sent.logs.map((l) => [l.address.toLowerCase(), l.topics])).to.deep.equal([[ATOM_ERC20.toLowerCase(), [topicOf(ERC20_ABI, "Transfer"), word(userAddr), word(B)]]]);
      expect(await cosmos.balance(B, ATOM)).to.equal(500_000n);
      expect(await cosmos.balance(userAddr, ATOM)).to.equal(1_500_000n);
      expect((await c.coins(B)).map((x) => x.denom)).to.deep.equal(["atest", ATOM]);
      // the bank precompile lists the coins that have pairs, by denom
      const bank = BANK_ABI.decodeFunctionResult("balances", await c.call(BANK, BANK_ABI.encodeFunctionData("balances", [B])))[0] as Array<[string, bigint]>;
      expect(bank.map(([a, amount]) => [getAddress(a), amount])).to.deep.equal([
        [NATIVE_ERC20, await c.balance(B)],
        [ATOM_ERC20, 500_000n],
      ]);
      expect(BANK_ABI.decodeFunctionResult("supplyOf", await c.call(BANK, BANK_ABI.encodeFunctionData("supplyOf", [ATOM_ERC20])))[0]).to.equal(5_000_000n);

      // the plain ERC-20 takes no value; a second registration and a coin other than a voucher are refused
      expect(await c.revertReason(ATOM_ERC20, ERC20_ABI.encodeFunctionData("transfer", [B, 1n]), A, 5n)).to.include("cannot receive funds, received: 5");
      expect(await c.revertReason(ATOM_ERC20, ERC20_ABI.encodeFunctionData("balanceOf", [B]), A, 2n)).to.include("cannot receive funds, received: 2");
      expect(await c.revertReason(ATOM_ERC20, ERC20_ABI.encodeFunctionData("transfer", [B, 10n ** 12n]))).to.include("ERC20: transfer amount exceeds balance");
      expect((await rpcError(cosmos.registerCoin(ATOM))).message).to.equal(`token already exists for denom ${ATOM}: token pair already exists`);
      expect(await c.revertReason(ATOM_ERC20, "0x12345678")).to.include("no method with id: 0x12345678");
      expect((await rpcError(cosmos.registerCoin("uatom"))).message).to.equal("coin uatom does not have 'ibc/' prefix: invalid denomination for cross-chain transfer");

      if (h.url !== undefined && make.name === "http") {
        const get = async (p: string) => {
          const res = await fetch(new URL(p, h.url));
          return { status: res.status, body: (await res.json()) as Record<string, unknown> };
        };
        const bech = (await h.request<{ bech32_prefixes: { account: string } }>("cosmos_stakingState")).bech32_prefixes.account;
        const { bech32 } = await import("bech32");
        const balances = await get(`/cosmos/bank/v1beta1/balances/${bech32.encode(bech, bech32.toWords(getBytes(B)))}`);
        expect(balances.body).to.deep.equal({
          balances: [
            { denom: "atest", amount: (await c.balance(B)).toString() },
            { denom: ATOM, amount: "500000" },
          ],
          pagination: { next_key: null, total: "2" },
        });
        const pairs = await get("/cosmos/evm/erc20/v1/token_pairs");
        // in x/erc20's store order, by pair id (sha256 of "address|denom": ATOM's 2fe421e0…, the native coin's e7e4b6b8…), not registration order
        expect(pairs.body).to.deep.equal({
          token_pairs: [
            { erc20_address: ATOM_ERC20, denom: ATOM, enabled: true, contract_owner: "OWNER_MODULE" },
            { erc20_address: NATIVE_ERC20, denom: "atest", enabled: true, contract_owner: "OWNER_MODULE" },
          ],
          pagination: { next_key: null, total: "2" },
        });
        expect((await get(`/cosmos/evm/erc20/v1/token_pairs/${ATOM}`)).body).to.deep.equal({ token_pair: { erc20_address: ATOM_ERC20, denom: ATOM, enabled: true, contract_owner: "OWNER_MODULE" } });
        expect((await get(`/cosmos/evm/erc20/v1/token_pairs/${ATOM_ERC20}`)).status).to.equal(200);
        expect(await get("/cosmos/evm/erc20/v1/token_pairs/uosmo")).to.deep.equal({ status: 404, body: { code: 5, message: "token pair with token 'uosmo'", details: [] } });
      }
    });
  });
}

describe("x/erc20's token pairs as chain state", function () {
  this.timeout(60_000);
  let h: Harness;
  afterEach(() => h?.close());

  const setUp = async (x: Harness) => {
    const cosmos = new CosmosHelpers((method, params = []) => x.request(method, params));
    await cosmos.registerCoin(ATOM, ATOM_META);
    await cosmos.mintCoins(A, ATOM, 9_000n);
    await chainOf(x).tx(A, ATOM_ERC20, ERC20_ABI.encodeFunctionData("approve", [B, 4_000n]));
    await chainOf(x).tx(A, ATOM_ERC20, ERC20_ABI.encodeFunctionData("transfer", [B, 1_000n]));
    return cosmos;
  };
  const expectState = async (x: Harness) => {
    const c = chainOf(x);
    expect(await c.erc20(ATOM_ERC20, "balanceOf", [A])).to.equal(8_000n);
    expect(await c.erc20(ATOM_ERC20, "balanceOf", [B])).to.equal(1_000n);
    expect(await c.erc20(ATOM_ERC20, "allowance", [A, B])).to.equal(4_000n);
    expect(await c.erc20(ATOM_ERC20, "symbol")).to.equal("ATOM");
    // x/erc20's store order: by pair id
    expect((await x.request<Array<{ denom: string }>>("cosmos_tokenPairs")).map((p) => p.denom)).to.deep.equal([ATOM, "atest"]);
  };

  it("evm_revert takes a registration back: the address is an empty account again", async () => {
    h = await inProcess(COSMOS);
    const id = await h.request<string>("evm_snapshot");
    await setUp(h);
    await expectState(h);
    expect(await h.request("evm_revert", [id])).to.equal(true);
    expect((await h.request<Array<{ denom: string }>>("cosmos_tokenPairs")).map((p) => p.denom)).to.deep.equal(["atest"]);
    expect(await h.request("eth_getCode", [ATOM_ERC20, "latest"])).to.equal("0x");
    expect(await chainOf(h).call(ATOM_ERC20, ERC20_ABI.encodeFunctionData("balanceOf", [A]))).to.equal("0x");
    expect(await h.request("cosmos_balances", [A])).to.deep.equal([{ denom: "atest", amount: (await chainOf(h).balance(A)).toString() }]);
  });

  it("hardhat_reset's new chain starts without the old chain's pairs, and a pair registered on it works", async () => {
    h = await inProcess(COSMOS);
    await setUp(h);
    await expectState(h);
    expect(await h.request("hardhat_reset", [])).to.equal(true);
    expect((await h.request<Array<{ denom: string }>>("cosmos_tokenPairs")).map((p) => p.denom)).to.deep.equal(["atest"]);
    expect(await h.request("eth_getCode", [ATOM_ERC20, "latest"])).to.equal("0x");
    expect(await chainOf(h).call(ATOM_ERC20, ERC20_ABI.encodeFunctionData("balanceOf", [A]))).to.equal("0x");
    // registered again on the new chain, the pair works there
    await setUp(h);
    await expectState(h);
  });

  it("a dump loaded into a new node brings the pairs, their balances and allowances, and their precompiles", async () => {
    h = await inProcess(COSMOS);
    await setUp(h);
    const dump = await h.request("hardhat_dumpState");
    await h.close();
    h = await inProcess(COSMOS);
    await h.request("hardhat_loadState", [dump]);
    await expectState(h);
    await chainOf(h).tx(B, ATOM_ERC20, ERC20_ABI.encodeFunctionData("transferFrom", [A, B, 4_000n]));
    expect(await chainOf(h).erc20(ATOM_ERC20, "balanceOf", [B])).to.equal(5_000n);
  });

  it("a pair registered after evm_revert back past a state load's new chain works on the chain reverted to", async () => {
    // a dump of a later height: loaded into a fresh node, it opens a chain of its own; evm_revert brings the first chain back
    h = await inProcess(COSMOS);
    await h.request("hardhat_mine", ["0x5"]);
    const dump = await h.request("hardhat_dumpState");
    await h.close();
    h = await inProcess(COSMOS);
    const id = await h.request<string>("evm_snapshot");
    await h.request("hardhat_loadState", [dump]);
    expect(await h.request("evm_revert", [id])).to.equal(true);
    await setUp(h);
    await expectState(h);
  });

  it("a LevelDB home reopened keeps the pairs working", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "erc20-home-"));
    try {
      h = await inProcess({ ...COSMOS, kv: await LevelKV.open(dir) });
      await setUp(h);
      await h.close();
      h = await inProcess({ ...COSMOS, kv: await LevelKV.open(dir) });
      await expectState(h);
    } finally {
      await h.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("genesis coins come from the config: minted, with metadata, a voucher paired", async () => {
    const cfg = resolveEpochsConfig({
      profile: "cosmos-evm",
      precompiles: {
        erc20: {
          coins: [
            { denom: ATOM, ...ATOM_META, balances: { [B]: "7000" } },
            { denom: "uosmo", balances: { [A]: 12 } },
          ],
        },
      },
    });
    h = await inProcess({ epochs: { profile: "cosmos-evm" }, cosmos: cosmosOptionsFromConfig(cfg) });
    const c = chainOf(h);
    expect(await c.erc20(ATOM_ERC20, "balanceOf", [B])).to.equal(7_000n);
    expect(await c.erc20(ATOM_ERC20, "name")).to.equal("Cosmos Hub Atom");
    expect((await h.request<Array<{ denom: string; amount: string }>>("cosmos_balances", [A])).find((x) => x.denom === "uosmo")).to.deep.equal({ denom: "uosmo", amount: "12" });
    // uosmo has no pair by denom on cosmos/evm
    expect((await h.request<Array<{ denom: string }>>("cosmos_tokenPairs")).map((p) => p.denom)).to.deep.equal([ATOM, "atest"]);
  });

  it("refuses bad erc20 config", () => {
    const bad = (erc20: unknown) => () => resolveEpochsConfig({ precompiles: { erc20: erc20 as never } });
    expect(bad({ coins: [{ denom: "x" }] })).to.throw(EpochsConfigError, "invalid epochs.precompiles.erc20.coins[0].denom");
    expect(bad({ coins: [{ denom: "ibc/12" }] })).to.throw(EpochsConfigError, "an IBC voucher is ibc/ and a 64-hex-digit hash");
    expect(bad({ coins: [{ denom: "uatom", name: "Atom" }] })).to.throw(EpochsConfigError, "give name, symbol and decimals together");
    expect(bad({ coins: [{ denom: "uatom", balances: { nope: 1 } }] })).to.throw(EpochsConfigError, "nope is not a hex address");
    expect(bad("yes")).to.throw(EpochsConfigError, "invalid epochs.precompiles.erc20");
    expect(cosmosOptionsFromConfig(resolveEpochsConfig({ precompiles: { erc20: false } })).erc20).to.equal(false);
  });

  it("under evmos with the modules on, WERC20 is WEVMOS over aevmos", async () => {
    h = await inProcess({ epochs: { profile: "evmos" }, cosmos: { staking: true } });
    const c = chainOf(h);
    expect([await c.erc20(NATIVE_ERC20, "name"), await c.erc20(NATIVE_ERC20, "symbol")]).to.deep.equal(["Evmos", "EVMOS"]);
    expect(await c.revertReason(NATIVE_ERC20, WERC20_ABI.encodeFunctionData("transfer", [B, 0n]))).to.include("coin 0aevmos amount is not positive");
  });
});
