/**
 * ICS20 transfers at 0x…0802 against the simulated counterparty (src/cosmos/ics20*.ts): a contract
 * sends the native coin and an IBC voucher out, each packet's three fates (acknowledged, error
 * acknowledgement, timeout) leave balances as ibc-go leaves them (escrow, refund, burn and mint for a
 * voucher going home); incoming transfers mint vouchers (paired as ERC-20s) or unescrow coins coming
 * home; the denom queries, the chain's failure texts, and the packets as chain state.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect } from "chai";
import { Interface, getAddress, getBytes, id } from "ethers";
import { bech32 } from "bech32";
import { ERC20_ABI } from "../../../src/cosmos/erc20/precompile";
import { ICS20_ABI } from "../../../src/cosmos/ics20/precompile";
import { escrowAddress } from "../../../src/cosmos/ics20/keeper";
import { EpochsConfigError, cosmosOptionsFromConfig, resolveEpochsConfig } from "../../../src/host/settings/epochs-config";
import type { RuntimeOptions } from "../../../src/app/runtime";
import { LevelKV } from "../../../src/storage/level-kv";
import { homeRuntimeOptions, openHome } from "../../../src/host/node/home";
import { type Harness, inProcess, rpcError, testChainConfig } from "../../helpers/harness";
import { harnesses } from "../../helpers/matrix";
import { compile } from "../../helpers/solc";

const ICS20 = "0x0000000000000000000000000000000000000802";
const A = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266";
const B = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const E18 = 10n ** 18n;
// what channel-0 makes of the counterparty's uatom: ibc/ and sha256("transfer/channel-0/uatom"), at the hash's last 20 bytes
const ATOM = "ibc/27394FB092D2ECCD56123C74F36E4C1F926001CEADA9CA97EA622B25F41E5EB2";
const ATOM_ERC20 = getAddress("0xf36e4c1f926001ceada9ca97ea622b25f41e5eb2");
const ESCROW0 = escrowAddress("transfer", "channel-0");
const COSMOS: Partial<RuntimeOptions> = {
  epochs: { profile: "cosmos-evm" },
  cosmos: {
    ics20: {
      channels: [
        { channelId: "channel-0", counterpartyChannelId: "channel-7", counterpartyChainId: "cosmoshub-4", open: true },
        { channelId: "channel-1", counterpartyChannelId: "channel-1", counterpartyChainId: "osmosis-1", open: false },
      ],
    },
  },
};
const q = (n: bigint): string => `0x${n.toString(16)}`;
const cosmosAddr = (hex: string) => bech32.encode("cosmos", bech32.toWords(getBytes(hex)));

const BRIDGE = compile(`${readFileSync(path.join(__dirname, "../../../contracts/precompiles/IICS20.sol"), "utf8")}
contract Bridge {
    uint64 public lastSequence;
    function send(string calldata channel, string calldata denom, uint256 amount, string calldata receiver, uint64 timeoutTimestamp) external returns (uint64) {
        lastSequence = IICS20(ICS20_PRECOMPILE_ADDRESS).transfer("transfer", channel, denom, amount, address(this), receiver, IbcHeight(0, 0), timeoutTimestamp, "weekly payout");
        return lastSequence;
    }
    /// Sends, pays a token out through its ERC-20, then reverts: nothing of it may stay.
    function sendThenRevert(address token, address to) external {
        IICS20(ICS20_PRECOMPILE_ADDRESS).transfer("transfer", "channel-0", "atest", 1 ether, address(this), "cosmos1x", IbcHeight(0, 0), type(uint64).max, "");
        (bool ok, ) = token.call(abi.encodeWithSignature("transfer(address,uint256)", to, 10));
        require(ok, "token transfer failed");
        revert("changed my mind");
    }
    function sendAs(address sender, string calldata denom) external {
        IICS20(ICS20_PRECOMPILE_ADDRESS).transfer("transfer", "channel-0", denom, 1, sender, "cosmos1x", IbcHeight(0, 0), 1, "");
    }
    receive() external payable {}
}
`).Bridge;
const bridge = new Interface(BRIDGE.abi as never);

interface Receipt {
  status: string;
  logs: Array<{ address: string; topics: string[]; data: string }>;
  contractAddress: string | null;
}
interface PacketJson {
  sequence: string;
  source_channel: string;
  denom: string;
  local_denom: string;
  amount: string;
  state: string;
  fate?: string;
  burned: boolean;
  memo: string;
  receiver: string;
}

function chainOf(h: Harness) {
  const tx = async (from: string, to: string | undefined, data: string, value = 0n): Promise<Receipt> => {
    const hash = await h.request<string>("eth_sendTransaction", [{ from, ...(to !== undefined ? { to } : {}), data, value: q(value), gas: q(3_000_000n) }]);
    return h.request<Receipt>("eth_getTransactionReceipt", [hash]);
  };
  const call = (to: string, data: string, from = A) => h.request<string>("eth_call", [{ from, to, data }, "latest"]);
  const balance = async (a: string) => BigInt(await h.request<string>("eth_getBalance", [a, "latest"]));
  const coin = async (a: string, denom: string) => BigInt((await h.request<Array<{ denom: string; amount: string }>>("cosmos_balances", [a])).find((c) => c.denom === denom)?.amount ?? "0");
  const packets = async () => (await h.request<{ packets: PacketJson[] }>("cosmos_ibcState")).packets;
  const deployBridge = async (): Promise<string> => {
    const addr = (await tx(A, undefined, BRIDGE.bytecode)).contractAddress as string;
    await tx(A, addr, "0x", 100n * E18);
    return addr;
  };
  const send = (bridgeAddr: string, channel: string, denom: string, amount: bigint, receiver = "cosmos1receiver", timeout = 4_000_000_000n * 10n ** 9n) =>
    tx(A, bridgeAddr, bridge.encodeFunctionData("send", [channel, denom, amount, receiver, timeout]));
  const failure = async (bridgeAddr: string, data: string) => (await rpcError(call(bridgeAddr, data))).message;
  return { tx, call, balance, coin, packets, deployBridge, send, failure };
}

for (const make of harnesses()) {
  describe(`ICS20 transfers under cosmos-evm, over ${make.name}`, function () {
    this.timeout(60_000);
    let h: Harness;
    beforeEach(async () => {
      h = await make.create(COSMOS);
    });
    afterEach(() => h?.close());

    it("a contract sends the native coin out: escrowed; acknowledged it stays there, an error acknowledgement or a timeout refunds it", async () => {
      const c = chainOf(h);
      const br = await c.deployBridge();
      const sent = await c.send(br, "channel-0", "atest", 5n * E18, "cosmos1receiver");
      expect(sent.status).to.equal("0x1");
      const ev = ICS20_ABI.parseLog(sent.logs[0]);
      expect(getAddress(sent.logs[0].address)).to.equal(ICS20);
      expect(ev?.name).to.equal("IBCTransfer");
      expect([ev?.args.sender, ev?.args.receiver.hash, ev?.args.sourcePort, ev?.args.sourceChannel, ev?.args.denom, ev?.args.amount, ev?.args.memo]).to.deep.equal([
        br,
        id("cosmos1receiver"),
        "transfer",
        "channel-0",
        "atest",
        5n * E18,
        "weekly payout",
      ]);
      expect(await c.balance(br)).to.equal(95n * E18);
      expect(await c.balance(ESCROW0)).to.equal(5n * E18);
      expect(bridge.decodeFunctionResult("lastSequence", await c.call(br, bridge.encodeFunctionData("lastSequence")))[0]).to.equal(1n);
      expect((await c.packets())[0]).to.deep.include({
        sequence: "1",
        source_channel: "channel-0",
        denom: "atest",
        local_denom: "atest",
        amount: `${5n * E18}`,
        state: "pending",
        burned: false,
        memo: "weekly payout",
        receiver: "cosmos1receiver",
      });

      expect(await h.request("cosmos_ibcSettle", ["channel-0", "0x1", "ack"])).to.deep.include({ state: "acknowledged", fate: "ack" });
      expect([await c.balance(br), await c.balance(ESCROW0)]).to.deep.equal([95n * E18, 5n * E18]);
      expect((await rpcError(h.request("cosmos_ibcSettle", ["channel-0", "0x1", "timeout"]))).message).to.equal("packet with sequence (1) has already been acknowledged: packet already relayed");

      await c.send(br, "channel-0", "atest", 2n * E18);
      expect(await h.request("cosmos_ibcSettle", ["channel-0", "0x2", "error", "insufficient funds on the counterparty"])).to.deep.include({
        state: "refunded",
        fate: "error",
        error: "insufficient funds on the counterparty",
      });
      expect([await c.balance(br), await c.balance(ESCROW0)]).to.deep.equal([95n * E18, 5n * E18]);

      await c.send(br, "channel-0", "atest", 3n * E18);
      expect(await c.balance(br)).to.equal(92n * E18);
      await h.request("cosmos_ibcSettle", ["channel-0", "0x3", "timeout"]);
      expect([await c.balance(br), await c.balance(ESCROW0)]).to.deep.equal([95n * E18, 5n * E18]);
      expect((await c.packets()).map((p) => [p.sequence, p.state, p.fate])).to.deep.equal([
        ["1", "acknowledged", "ack"],
        ["2", "refunded", "error"],
        ["3", "refunded", "timeout"],
      ]);
    });

    it("lists the IBC denoms in the transfer module's store order, by hash, whatever order they came in", async () => {
      const c = chainOf(h);
      const br = await c.deployBridge();
      // sha256 of the paths: transfer/channel-0/uatom 27394FB0…, transfer/channel-0/ujuno 04F5F501…
      await h.request("cosmos_ibcReceive", [{ channel: "channel-0", denom: "uatom", amount: "0x1", receiver: cosmosAddr(br) }]);
      await h.request("cosmos_ibcReceive", [{ channel: "channel-0", denom: "ujuno", amount: "0x1", receiver: cosmosAddr(br) }]);
      const [list] = ICS20_ABI.decodeFunctionResult("denoms", await c.call(ICS20, ICS20_ABI.encodeFunctionData("denoms", [["0x", 0, 10, true, false]])));
      expect((list as Array<[string]>).map((d) => d[0])).to.deep.equal(["ujuno", "uatom"]);
    });

    it("an incoming voucher is minted and paired as an ERC-20; sent home it is burned, and refunded by minting it back", async () => {
      const c = chainOf(h);
      const br = await c.deployBridge();
      const got = await h.request("cosmos_ibcReceive", [{ channel: "channel-0", denom: "uatom", amount: "0xf4240", receiver: cosmosAddr(br), sender: "cosmos1sender" }]);
      expect(got).to.deep.equal({ denom: ATOM, path: "transfer/channel-0/uatom", erc20_address: ATOM_ERC20 });
      expect(ERC20_ABI.decodeFunctionResult("balanceOf", await c.call(ATOM_ERC20, ERC20_ABI.encodeFunctionData("balanceOf", [br])))[0]).to.equal(1_000_000n);
      expect(ERC20_ABI.decodeFunctionResult("totalSupply", await c.call(ATOM_ERC20, ERC20_ABI.encodeFunctionData("totalSupply")))[0]).to.equal(1_000_000n);
      // without bank metadata, its name, symbol and decimals come from the trace's base denom (u: 6 decimals)
      const meta = async (fn: string) => ERC20_ABI.decodeFunctionResult(fn, await c.call(ATOM_ERC20, ERC20_ABI.encodeFunctionData(fn)))[0] as unknown;
      expect([await meta("name"), await meta("symbol"), await meta("decimals")]).to.deep.equal(["Atom", "ATOM", 6n]);
      // the denom queries know it now
      expect(ICS20_ABI.decodeFunctionResult("denomHash", await c.call(ICS20, ICS20_ABI.encodeFunctionData("denomHash", ["transfer/channel-0/uatom"])))[0]).to.equal(ATOM.slice(4));
      const [denom] = ICS20_ABI.decodeFunctionResult("denom", await c.call(ICS20, ICS20_ABI.encodeFunctionData("denom", [ATOM])));
      expect([denom[0], denom[1].map((hop: string[]) => [hop[0], hop[1]])]).to.deep.equal(["uatom", [["transfer", "channel-0"]]]);
      expect(ICS20_ABI.decodeFunctionResult("denomHash", await c.call(ICS20, ICS20_ABI.encodeFunctionData("denomHash", ["transfer/channel-5/uosmo"])))[0]).to.equal("");
      const [list, page] = ICS20_ABI.decodeFunctionResult("denoms", await c.call(ICS20, ICS20_ABI.encodeFunctionData("denoms", [["0x", 0, 10, true, false]])));
      expect([list.length, page[1]]).to.deep.equal([1, 1n]);

      // home over channel-0, where it came from: burned
      await c.send(br, "channel-0", ATOM, 400_000n);
      expect(await c.coin(br, ATOM)).to.equal(600_000n);
      expect(ERC20_ABI.decodeFunctionResult("totalSupply", await c.call(ATOM_ERC20, ERC20_ABI.encodeFunctionData("totalSupply")))[0]).to.equal(600_000n);
      expect((await c.packets())[0]).to.deep.include({ denom: "transfer/channel-0/uatom", local_denom: ATOM, burned: true });
      await h.request("cosmos_ibcSettle", ["channel-0", "0x1", "error"]);
      expect(await c.coin(br, ATOM)).to.equal(1_000_000n);
      expect(ERC20_ABI.decodeFunctionResult("totalSupply", await c.call(ATOM_ERC20, ERC20_ABI.encodeFunctionData("totalSupply")))[0]).to.equal(1_000_000n);
      // acknowledged, it stays burned
      await c.send(br, "channel-0", ATOM, 250_000n);
      await h.request("cosmos_ibcSettle", ["channel-0", "0x2", "ack"]);
      expect(await c.coin(br, ATOM)).to.equal(750_000n);

      // a coin of this chain coming home (the counterparty names it by its end of the channel): unescrowed
      await c.send(br, "channel-0", "atest", 4n * E18);
      const home = await h.request("cosmos_ibcReceive", [{ channel: "channel-0", denom: "transfer/channel-7/atest", amount: q(3n * E18), receiver: B }]);
      expect(home).to.deep.equal({ denom: "atest", path: "atest" });
      expect(await c.balance(ESCROW0)).to.equal(1n * E18);
      if (make.name === "http" && h.url !== undefined) {
        const res = await fetch(new URL(`/cosmos/bank/v1beta1/balances/${cosmosAddr(br)}`, h.url));
        expect(((await res.json()) as { balances: unknown[] }).balances).to.deep.equal([
          { denom: "atest", amount: `${96n * E18}` },
          { denom: ATOM, amount: "750000" },
        ]);
      }
    });

    it("refuses with the chain's texts: unknown and closed channels, bad receivers, a voucher it has not seen, too little balance, another sender", async () => {
      const c = chainOf(h);
      const br = await c.deployBridge();
      const send = (channel: string, denom: string, amount: bigint, receiver = "cosmos1receiver", timeout = 1n) => bridge.encodeFunctionData("send", [channel, denom, amount, receiver, timeout]);
      expect(await c.failure(br, send("channel-9", "atest", 1n))).to.include("port ID (transfer) channel ID (channel-9): channel not found");
      expect(await c.failure(br, send("channel-1", "atest", 1n))).to.include("channel (channel-1) is not open, current state: STATE_CLOSED: invalid channel state");
      expect(await c.failure(br, send("channel-0", "atest", 1n, ""))).to.include("missing recipient address: invalid address");
      expect(await c.failure(br, send("channel-0", "atest", 1n, "cosmos1receiver", 0n))).to.include("timeout height and timeout timestamp cannot both be 0");
      // ibc-go's limits are bytes: 1,025 two-byte characters are 2,050 bytes, past the receiver's 2,048
      expect(await c.failure(br, send("channel-0", "atest", 1n, "é".repeat(1025)))).to.include("recipient address must not exceed 2048 bytes: invalid address");
      // a string that is not UTF-8 is refused as the ABI decoder refuses it, and the node goes on
      const utf8 = send("channel-0", "atest", 1n, "RRRR").replace(Buffer.from("RRRR").toString("hex"), "fffec328");
      expect(await c.failure(br, utf8)).to.include("invalid codepoint");
      expect(await c.failure(br, send("channel-0", ATOM, 1n))).to.include(`denomination not found for ${ATOM}`);
      expect(await c.failure(br, send("channel-0", "atest", 1000n * E18))).to.include(`spendable balance ${100n * E18}atest is smaller than ${1000n * E18}atest: insufficient funds`);
      expect(await c.failure(br, send("channel-0", "atest", 0n))).to.include("0atest: insufficient funds");
      expect(await c.failure(br, bridge.encodeFunctionData("sendAs", [A, "atest"]))).to.include(`msg.sender address ${getAddress(br)} does not match the requester address ${A}`);
      expect((await rpcError(h.request("cosmos_ibcReceive", [{ channel: "channel-0", denom: "uatom", amount: "0x1", receiver: "osmo1xyz" }]))).message).to.match(
        /^failed to decode receiver address osmo1xyz: .*: invalid address$/,
      );
      expect((await rpcError(h.request("cosmos_ibcReceive", [{ channel: "channel-1", denom: "uatom", amount: "0x1", receiver: B }]))).message).to.equal(
        "channel (channel-1) is not open, current state: STATE_CLOSED: invalid channel state",
      );
      expect((await rpcError(h.request("cosmos_ibcSettle", ["channel-0", "0x9", "ack"]))).message).to.equal(
        "packet commitment not found for port transfer, channel channel-0, sequence 9: packet commitment not found",
      );
      expect((await rpcError(h.request("cosmos_ibcSettle", ["channel-0", "0x1", "maybe"]))).code).to.equal(-32602);
      // nothing of it changed the chain
      expect(await c.packets()).to.deep.equal([]);
      expect(await c.balance(br)).to.equal(100n * E18);
    });
  });
}

describe("ICS20 packets as chain state", function () {
  this.timeout(60_000);
  let h: Harness;
  afterEach(() => h?.close());

  it("evm_revert takes packets, vouchers and escrows back; a dump loaded into a new node keeps them and their fates can still be decided", async () => {
    h = await inProcess(COSMOS);
    let c = chainOf(h);
    const br = await c.deployBridge();
    const snap = await h.request<string>("evm_snapshot");
    await h.request("cosmos_ibcReceive", [{ channel: "channel-0", denom: "uatom", amount: "0x64", receiver: br }]);
    await c.send(br, "channel-0", "atest", E18);
    await h.request("evm_revert", [snap]);
    expect(await c.packets()).to.deep.equal([]);
    expect(await c.balance(ESCROW0)).to.equal(0n);
    expect(await c.coin(br, ATOM)).to.equal(0n);
    expect((await h.request<{ denoms: unknown[] }>("cosmos_ibcState")).denoms).to.deep.equal([]);

    await h.request("cosmos_ibcReceive", [{ channel: "channel-0", denom: "uatom", amount: "0x64", receiver: br }]);
    await c.send(br, "channel-0", "atest", E18);
    const dump = await h.request("hardhat_dumpState");
    await h.close();
    h = await inProcess(COSMOS);
    await h.request("hardhat_loadState", [dump]);
    c = chainOf(h);
    expect((await c.packets()).map((p) => p.state)).to.deep.equal(["pending"]);
    await h.request("cosmos_ibcSettle", ["channel-0", "0x1", "timeout"]);
    expect(await c.balance(br)).to.equal(100n * E18);
    expect(ERC20_ABI.decodeFunctionResult("balanceOf", await c.call(ATOM_ERC20, ERC20_ABI.encodeFunctionData("balanceOf", [br])))[0]).to.equal(100n);
  });

  it("a packet times out in the block whose time reaches its timeout: refunded, hardhat_mine reserving the blocks before", async () => {
    h = await inProcess(COSMOS);
    const c = chainOf(h);
    const br = await c.deployBridge();
    const headTime = async () => BigInt((await h.request<{ timestamp: string }>("eth_getBlockByNumber", ["latest", false])).timestamp);
    // a timeout the chain's clock has passed is refused
    expect(await c.failure(br, bridge.encodeFunctionData("send", ["channel-0", "atest", E18, "cosmos1r", (await headTime()) * 10n ** 9n]))).to.include("packet timeout has elapsed");
    const due = (await headTime()) + 3_600n;
    await c.send(br, "channel-0", "atest", 5n * E18, "cosmos1r", due * 10n ** 9n);
    const head = BigInt(await h.request<string>("eth_blockNumber"));
    expect(await c.balance(br)).to.equal(95n * E18);
    // 10,000 blocks one second apart: the one whose time reaches `due` refunds it; the modules' quiet blocks around it are reserved, not made
    let reserved = 0n;
    h.runtime.node.on("reserved", (first: bigint, last: bigint) => (reserved += last - first + 1n));
    await h.request("hardhat_mine", [q(10_000n), "0x1"]);
    expect(reserved).to.be.greaterThan(9_000n);
    expect((await c.packets())[0]).to.deep.include({ state: "refunded", fate: "timeout" });
    expect([await c.balance(br), await c.balance(ESCROW0)]).to.deep.equal([100n * E18, 0n]);
    let lo = head + 1n;
    let hi = head + 10_000n;
    while (lo < hi) {
      const m = (lo + hi) / 2n;
      if (BigInt(await h.request<string>("eth_getBalance", [br, q(m)])) === 100n * E18) hi = m;
      else lo = m + 1n;
    }
    expect(BigInt((await h.request<{ timestamp: string }>("eth_getBlockByNumber", [q(lo), false])).timestamp)).to.equal(due);
    const events = await h.request<{ end_block_events: Array<{ type: string; attributes: Array<{ key: string; value: string }> }> }>("epochs_blockEvents", [q(lo)]);
    expect(events.end_block_events.find((e) => e.type === "timeout_packet")?.attributes).to.deep.equal([
      { key: "packet_src_port", value: "transfer" },
      { key: "packet_src_channel", value: "channel-0" },
      { key: "packet_sequence", value: "1" },
    ]);
    // settled before its time, a packet is not timed out again
    await c.send(br, "channel-0", "atest", E18, "cosmos1r", ((await headTime()) + 60n) * 10n ** 9n);
    await h.request("cosmos_ibcSettle", ["channel-0", "0x2", "ack"]);
    await h.request("evm_increaseTime", [120]);
    await h.request("evm_mine");
    expect((await c.packets())[1]).to.deep.include({ state: "acknowledged" });
    expect(await c.balance(br)).to.equal(99n * E18);
  });

  it("a transaction that reverts leaves no packet, escrow or token transfer behind", async () => {
    h = await inProcess(COSMOS);
    const c = chainOf(h);
    const br = await c.deployBridge();
    await h.request("cosmos_ibcReceive", [{ channel: "channel-0", denom: "uatom", amount: "0x64", receiver: br }]);
    const data = bridge.encodeFunctionData("sendThenRevert", [ATOM_ERC20, B]);
    expect((await rpcError(c.call(br, data))).message).to.include("changed my mind");
    // mined and reverted (Hardhat's automine answers the send with the revert)
    await h.request<string>("eth_sendTransaction", [{ from: A, to: br, data, gas: q(3_000_000n) }]).catch(() => undefined);
    const [mined] = (await h.request<{ transactions: string[] }>("eth_getBlockByNumber", ["latest", false])).transactions;
    expect((await h.request<Receipt>("eth_getTransactionReceipt", [mined])).status).to.equal("0x0");
    expect(await c.packets()).to.deep.equal([]);
    expect(await c.balance(ESCROW0)).to.equal(0n);
    expect([await c.balance(br), await c.coin(br, ATOM), await c.coin(B, ATOM)]).to.deep.equal([100n * E18, 100n, 0n]);
  });

  it("a LevelDB home reopened keeps channels, packets and traces: a packet sent before can be settled after", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "ics20-home-"));
    try {
      h = await inProcess({ ...COSMOS, kv: await LevelKV.open(dir) });
      const br = await chainOf(h).deployBridge();
      await h.request("cosmos_ibcReceive", [{ channel: "channel-0", denom: "uatom", amount: "0x64", receiver: br }]);
      await chainOf(h).send(br, "channel-0", ATOM, 40n);
      const state = await h.request("cosmos_ibcState");
      await h.close();
      h = await inProcess({ ...COSMOS, kv: await LevelKV.open(dir) });
      expect(await h.request("cosmos_ibcState")).to.deep.equal(state);
      await h.request("cosmos_ibcSettle", ["channel-0", "0x1", "error"]);
      expect(await chainOf(h).coin(br, ATOM)).to.equal(100n);
      expect(ERC20_ABI.decodeFunctionResult("balanceOf", await chainOf(h).call(ATOM_ERC20, ERC20_ABI.encodeFunctionData("balanceOf", [br])))[0]).to.equal(100n);
    } finally {
      await h.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("a voucher named by its path (config, cosmos_registerCoin) has its trace: its ERC-20 names itself, ICS20 sends it home", async () => {
    const cfg = resolveEpochsConfig({ profile: "cosmos-evm", precompiles: { erc20: { coins: [{ denom: "transfer/channel-0/uatom", balances: { [A]: 900 } }] } } });
    h = await inProcess({ epochs: { profile: "cosmos-evm" }, cosmos: cosmosOptionsFromConfig(cfg) });
    const c = chainOf(h);
    const meta = async (token: string, fn: string) => ERC20_ABI.decodeFunctionResult(fn, await c.call(token, ERC20_ABI.encodeFunctionData(fn)))[0] as unknown;
    expect([await meta(ATOM_ERC20, "symbol"), await meta(ATOM_ERC20, "decimals")]).to.deep.equal(["ATOM", 6n]);
    expect(await c.coin(A, ATOM)).to.equal(900n);
    const br = await c.deployBridge();
    await c.tx(A, ATOM_ERC20, ERC20_ABI.encodeFunctionData("transfer", [br, 500n]));
    await c.send(br, "channel-0", ATOM, 500n);
    expect((await c.packets())[0]).to.deep.include({ denom: "transfer/channel-0/uatom", burned: true });
    // by the dev method: an 18-decimal coin over channel-1's path
    const osmo = await h.request<{ denom: string; erc20_address: string }>("cosmos_registerCoin", ["transfer/channel-0/aosmo"]);
    expect(osmo.denom).to.match(/^ibc\/[0-9A-F]{64}$/);
    expect([await meta(osmo.erc20_address, "name"), await meta(osmo.erc20_address, "decimals")]).to.deep.equal(["Osmo", 18n]);
    expect((await rpcError(h.request("cosmos_registerCoin", ["transfer/channel-0/"]))).message).to.include("invalid voucher path");
  });

  it("exports coins, pairs, traces and channels to a genesis.json that a node's home starts from with the same", async () => {
    h = await inProcess(COSMOS);
    const c = chainOf(h);
    await h.request("cosmos_ibcReceive", [{ channel: "channel-0", denom: "uatom", amount: "0x3e8", receiver: B }]);
    await h.request("cosmos_registerCoin", ["transfer/channel-0/aosmo", { name: "Osmosis", symbol: "OSMO", decimals: 18 }]);
    await h.request("cosmos_mintCoins", [A, "ujuno", "0x7"]);
    await h.request("cosmos_setDenomMetadata", ["ujuno", { name: "Juno", symbol: "JUNO", decimals: 6 }]);
    const exported = await h.request<{
      bank: { balances: unknown[]; denom_metadata: Array<{ base: string }> };
      erc20: { token_pairs: Array<{ denom: string }> };
      transfer: { denoms: unknown[] };
      ibc: { channel_genesis: { channels: Array<{ channel_id: string; state: string }> } };
    }>("cosmos_exportGenesis");
    expect(exported.bank.balances).to.deep.equal([
      { address: cosmosAddr(B), coins: [{ denom: ATOM, amount: "1000" }] },
      { address: cosmosAddr(A), coins: [{ denom: "ujuno", amount: "7" }] },
    ]);
    expect(exported.erc20.token_pairs.map((p) => p.denom)).to.have.length(3);
    expect(exported.transfer.denoms).to.deep.include({ base: "uatom", trace: [{ port_id: "transfer", channel_id: "channel-0" }] });
    expect(exported.ibc.channel_genesis.channels.map((ch) => [ch.channel_id, ch.state])).to.deep.equal([
      ["channel-0", "STATE_OPEN"],
      ["channel-1", "STATE_CLOSED"],
    ]);
    const before = { pairs: await h.request("cosmos_tokenPairs"), channels: (await h.request<{ channels: unknown }>("cosmos_ibcState")).channels, b: await c.coin(B, ATOM) };
    await h.close();

    const dir = mkdtempSync(path.join(tmpdir(), "ics20-genesis-"));
    try {
      const home = openHome(dir, { chainId: 9000n, genesisTime: 1_709_294_400n, epochs: () => [], namespaces: ["eth", "cosmos"], profile: "cosmos-evm" });
      const doc = JSON.parse(readFileSync(home.paths.genesis, "utf8")) as { app_state: Record<string, unknown> };
      Object.assign(doc.app_state, exported);
      writeFileSync(home.paths.genesis, JSON.stringify(doc));
      const options = await homeRuntimeOptions(openHome(dir, { chainId: 9000n, genesisTime: 1_709_294_400n, epochs: () => [], namespaces: ["eth", "cosmos"], profile: "cosmos-evm" }), {
        chain: testChainConfig(),
        epochs: { profile: "cosmos-evm" },
        cosmos: {},
      });
      h = await inProcess({ ...options, epochs: { ...options.epochs, profile: "cosmos-evm" } });
      const again = chainOf(h);
      expect(await h.request("cosmos_tokenPairs")).to.deep.equal(before.pairs);
      expect((await h.request<{ channels: unknown }>("cosmos_ibcState")).channels).to.deep.equal(before.channels);
      expect(await again.coin(B, ATOM)).to.equal(before.b);
      expect(await again.coin(A, "ujuno")).to.equal(7n);
      const meta = async (token: string, fn: string) => ERC20_ABI.decodeFunctionResult(fn, await again.call(token, ERC20_ABI.encodeFunctionData(fn)))[0] as unknown;
      // the trace came back with the voucher: its ERC-20 names itself from it
      expect([await meta(ATOM_ERC20, "symbol"), await meta(ATOM_ERC20, "decimals")]).to.deep.equal(["ATOM", 6n]);
      expect(await h.request("cosmos_exportGenesis")).to.deep.include({ transfer: exported.transfer, erc20: exported.erc20 });
      // a malformed section is refused with its field
      writeFileSync(home.paths.genesis, JSON.stringify({ ...doc, app_state: { ...doc.app_state, bank: { balances: [{ address: "osmo1xyz", coins: [] }] } } }));
      let message = "";
      await homeRuntimeOptions(openHome(dir, { chainId: 9000n, genesisTime: 1_709_294_400n, epochs: () => [], namespaces: ["eth", "cosmos"], profile: "cosmos-evm" }), {
        chain: testChainConfig(),
        epochs: { profile: "cosmos-evm" },
        cosmos: {},
      }).catch((err: Error) => (message = err.message));
      expect(message).to.match(/app_state\.bank\.balances\[0\]\.address: /);
    } finally {
      await h.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("takes its channels from the config and refuses bad ones", () => {
    expect(cosmosOptionsFromConfig(resolveEpochsConfig({ precompiles: { ics20: { channels: [{ channelId: "channel-3", open: false }] } } })).ics20).to.deep.equal({
      channels: [{ channelId: "channel-3", counterpartyChannelId: "channel-3", counterpartyChainId: "counterparty-1", open: false }],
    });
    const bad = (ics20: unknown) => () => resolveEpochsConfig({ precompiles: { ics20: ics20 as never } });
    expect(bad({ channels: [{ channelId: "zero" }] })).to.throw(EpochsConfigError, 'invalid epochs.precompiles.ics20.channels[0].channelId: expected a channel identifier like "channel-0"');
    expect(bad({ channels: [] })).to.throw(EpochsConfigError, "invalid epochs.precompiles.ics20");
    expect(bad({ channels: [{ channelId: "channel-0" }, { channelId: "channel-0" }] })).to.throw(EpochsConfigError, "is listed twice");
  });
});
