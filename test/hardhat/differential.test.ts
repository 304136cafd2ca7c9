/**
 * Differential test: one sequence of signed transactions runs on our chain and on Hardhat's own
 * EDR network; each transaction must give the same status, gasUsed, logs, contract address, and the
 * same return or revert data for the matching eth_call.
 */
import { expect } from "chai";
import hre from "hardhat";
import { createProvider } from "hardhat/internal/core/providers/construction";
import type { EthereumProvider } from "hardhat/types";
import { Interface, Transaction, Wallet, getCreateAddress, type TransactionLike } from "ethers";
import { compile } from "../helpers/solc";
import { type Harness, inProcess } from "../helpers/harness";

const SOURCE = `
// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;
contract Subject {
  mapping(address => uint256) public balances;
  uint256[] public items;
  event Deposit(address indexed from, uint256 amount, bytes note);
  event Pushed(uint256 indexed index, uint256 value);
  error Custom(address who, uint256 code);
  function deposit(bytes calldata note) external payable { balances[msg.sender] += msg.value; emit Deposit(msg.sender, msg.value, note); }
  function push(uint256 n) external { for (uint256 i = 0; i < n; i++) { items.push(i * 7); emit Pushed(items.length - 1, i * 7); } }
  function clear() external { delete items; }
  function failReason() external pure { revert("reason here"); }
  function failCustom() external view { revert Custom(msg.sender, 42); }
  function failEmpty() external pure { revert(); }
  function failPanic(uint256 d) external pure returns (uint256) { return 1 / d; }
  function echo(bytes calldata b) external pure returns (bytes memory) { return b; }
  function hashes(uint256 n) external pure returns (bytes32 h) { for (uint256 i = 0; i < n; i++) { h = keccak256(abi.encode(h, i)); } }
  function create() external returns (address) { return address(new Child()); }
  // what console.sol's console.log(string,uint256) sends: a static call to an account with no code
  function say(uint256 n) external view returns (bool ok) { (ok, ) = address(0x000000000000000000636F6e736F6c652e6c6f67).staticcall(abi.encodeWithSignature("log(string,uint256)", "n=%d", n)); }
  receive() external payable {}
}
contract Child { uint256 public x = 1; }
contract Delegate { function ping() external pure returns (uint256) { return 77; } }`;

const KEYS = [
  "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80",
  "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d",
  "0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a",
];

interface Chain {
  name: string;
  request(method: string, params?: unknown[]): Promise<unknown>;
}

describe("differential: our chain vs Hardhat's EDR network", function () {
  this.timeout(120_000);
  let ours: Harness;
  let edr: EthereumProvider;
  let chains: Chain[];
  const compiled = compile(SOURCE);
  const subject = new Interface(compiled.Subject.abi as never);
  const wallets = KEYS.map((k) => new Wallet(k));

  before(async () => {
    ours = await inProcess();
    edr = await createProvider(hre.config, "hardhat");
    // EDR with the user's config: same mnemonic accounts; pin what could differ.
    chains = [
      { name: "ours", request: (m, p) => ours.request(m, p ?? []) },
      { name: "edr", request: (m, p) => edr.request({ method: m, params: p ?? [] }) },
    ];
    for (const c of chains) await c.request("evm_setAutomine", [false]);
  });
  after(() => ours.close());

  async function chainId(c: Chain): Promise<bigint> {
    return BigInt((await c.request("eth_chainId")) as string);
  }

  /** Sends each tx (signed per chain for its chain id) in its own block and returns the receipts. */
  async function run(c: Chain, txs: Array<{ wallet: number; tx: TransactionLike; authorize?: { address: string } }>) {
    const id = await chainId(c);
    const nonces = new Map<number, number>();
    const receipts: Array<Record<string, unknown>> = [];
    for (const { wallet, tx, authorize } of txs) {
      const w = wallets[wallet];
      const nonce = nonces.get(wallet) ?? Number(BigInt((await c.request("eth_getTransactionCount", [w.address, "latest"])) as string));
      nonces.set(wallet, nonce + 1);
      const full: TransactionLike = { chainId: id, nonce, gasLimit: 3_000_000n, ...tx };
      if (authorize !== undefined) {
        const auth = await w.authorize({ address: authorize.address, nonce: nonce + 1, chainId: id });
        full.authorizationList = [auth];
        nonces.set(wallet, nonce + 2);
      }
      const raw = await w.signTransaction(Transaction.from(full));
      const hash = await c.request("eth_sendRawTransaction", [raw]);
      await c.request("evm_mine");
      receipts.push((await c.request("eth_getTransactionReceipt", [hash])) as Record<string, unknown>);
    }
    return receipts;
  }

  function essence(r: Record<string, unknown>) {
    const logs = (r.logs as Array<{ address: string; topics: string[]; data: string }>).map((l) => ({ address: l.address, topics: l.topics, data: l.data }));
    return { status: r.status, gasUsed: r.gasUsed, cumulativeGasUsed: r.cumulativeGasUsed, contractAddress: r.contractAddress, logs, type: r.type };
  }

  it("gives the same receipts, return data and revert data", async () => {
    const deployer = wallets[0].address;
    const subjectAddr = getCreateAddress({ from: deployer, nonce: 0 });
    const delegateAddr = getCreateAddress({ from: deployer, nonce: 1 });
    const fee = { maxFeePerGas: 10n ** 11n, maxPriorityFeePerGas: 10n ** 9n };
    const plan = [
      { wallet: 0, tx: { type: 2, data: compiled.Subject.bytecode, ...fee } },
      { wallet: 0, tx: { type: 2, data: compiled.Delegate.bytecode, ...fee } },
      { wallet: 1, tx: { type: 2, to: subjectAddr, value: 12345n, data: subject.encodeFunctionData("deposit", ["0xbeef"]), ...fee } },
      { wallet: 1, tx: { type: 0, to: subjectAddr, gasPrice: 10n ** 10n, data: subject.encodeFunctionData("push", [5]) } },
      {
        wallet: 2,
        tx: { type: 1, to: subjectAddr, gasPrice: 10n ** 10n, accessList: [{ address: subjectAddr, storageKeys: ["0x" + "00".repeat(32)] }], data: subject.encodeFunctionData("push", [2]) },
      },
      { wallet: 2, tx: { type: 2, to: subjectAddr, data: subject.encodeFunctionData("clear"), ...fee } },
      { wallet: 1, tx: { type: 2, to: subjectAddr, data: subject.encodeFunctionData("failReason"), ...fee } },
      { wallet: 1, tx: { type: 2, to: subjectAddr, data: subject.encodeFunctionData("failCustom"), ...fee } },
      { wallet: 1, tx: { type: 2, to: subjectAddr, data: subject.encodeFunctionData("failEmpty"), ...fee } },
      { wallet: 1, tx: { type: 2, to: subjectAddr, data: subject.encodeFunctionData("failPanic", [0]), ...fee } },
      { wallet: 2, tx: { type: 2, to: subjectAddr, data: subject.encodeFunctionData("create"), ...fee } },
      { wallet: 2, tx: { type: 2, to: wallets[0].address, value: 10n ** 18n, ...fee } },
      { wallet: 0, tx: { type: 2, to: subjectAddr, value: 1n, ...fee } },
      { wallet: 1, tx: { type: 4, to: wallets[2].address, data: "0x", ...fee }, authorize: { address: delegateAddr } },
      // console.log costs what it costs on Hardhat's network
      { wallet: 0, tx: { type: 2, to: subjectAddr, data: subject.encodeFunctionData("say", [7]), ...fee } },
    ];
    const results = await Promise.all(chains.map((c) => run(c, plan)));
    expect(results[0].map(essence)).to.deep.equal(results[1].map(essence));
    expect(results[0][6].status).to.equal("0x0");
    expect(results[0][13].status).to.equal("0x1");

    const calls = [
      { to: subjectAddr, data: subject.encodeFunctionData("echo", ["0x0102030405"]) },
      { to: subjectAddr, data: subject.encodeFunctionData("hashes", [30]) },
      { to: subjectAddr, data: subject.encodeFunctionData("balances", [wallets[1].address]) },
      { to: subjectAddr, data: subject.encodeFunctionData("failReason") },
      { to: subjectAddr, data: subject.encodeFunctionData("failCustom"), from: wallets[2].address },
      { to: subjectAddr, data: subject.encodeFunctionData("failPanic", [0]) },
      // the 7702-delegated EOA now runs Delegate's code
      { to: wallets[1].address, data: new Interface(compiled.Delegate.abi as never).encodeFunctionData("ping") },
    ];
    for (const call of calls) {
      const outcomes = await Promise.all(
        chains.map(async (c) => {
          try {
            return { result: await c.request("eth_call", [call, "latest"]) };
          } catch (err) {
            const e = err as { data?: unknown };
            const data = typeof e.data === "string" ? e.data : (e.data as { data?: string } | undefined)?.data;
            return { revert: data };
          }
        }),
      );
      expect(outcomes[0], JSON.stringify(call)).to.deep.equal(outcomes[1]);
    }
    const gas = await Promise.all(chains.map((c) => c.request("eth_estimateGas", [{ from: wallets[0].address, ...calls[1] }])));
    expect(gas[0]).to.equal(gas[1]);
  });
});
