/**
 * epochs_exportGenesis (what the `epochs:export-genesis` tasks write) round trip: a chain started
 * from cosmos/evm's local_node.sh genesis, changed by transactions (a delegation, a contract with
 * storage that registers as an epoch hook, sends, another coin), exported, and a new node started
 * from the file: the same Cosmos chain id, balances, nonces, code, storage, hooks, validators and
 * delegations — and the same export again. The hook still runs at the new chain's next epoch.
 */
import { expect } from "chai";
import { Interface, getBytes } from "ethers";
import { bech32 } from "bech32";
import { STAKING_ABI } from "../../src/cosmos/staking/precompile";
import type { Harness } from "../helpers/harness";
import { type LocalNode, closeLocalNode, localNode, nodeFromGenesis } from "../helpers/local-node";
import { compileStandard } from "../helpers/solc";

const E18 = 10n ** 18n;
const STAKING = "0x0000000000000000000000000000000000000800";
const VALIDATOR = "0x7cB61D4117AE31a12E393a1Cfa3BaC666481D02E";
const DEV0 = "0xC6Fe5D33615a1C52c08018c47E8Bc53646A0E101";
const ALICE = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const BOB = "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC";
const q = (n: bigint): string => `0x${n.toString(16)}`;
const valoper = (hex: string): string => bech32.encode("cosmosvaloper", bech32.toWords(getBytes(hex)));

const SOURCE = `
// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;
interface IEpochs { function registerHooks() external returns (bool); }
contract Tally {
  uint256 public ends;
  string public label = "kept across the export";
  mapping(address => uint256) public seen;
  constructor() { IEpochs(0x0000000000000000000000000000000000000900).registerHooks(); seen[msg.sender] = 7; }
  function beforeEpochStart(string calldata, int64) external {}
  function afterEpochEnd(string calldata, int64) external { ends++; }
}`;

type Genesis = {
  genesis_time: string;
  chain_id: string;
  app_state: Record<string, unknown> & { evm: { accounts: Array<{ address: string; code: string; storage: unknown[] }> }; auth: { accounts: unknown[] } };
};

describe("epochs_exportGenesis: export a chain, start a node from it, the same state", function () {
  this.timeout(60_000);
  let a: LocalNode | undefined;
  let b: LocalNode | undefined;
  after(async () => {
    await closeLocalNode(a);
    await closeLocalNode(b);
  });

  const tally = new Interface(["function ends() view returns (uint256)", "function label() view returns (string)", "function seen(address) view returns (uint256)"]);
  const read = async (h: Harness, to: string, fn: string, args: unknown[] = []) =>
    tally.decodeFunctionResult(fn, await h.request<string>("eth_call", [{ to, data: tally.encodeFunctionData(fn, args) }, "latest"]))[0] as unknown;

  it("keeps balances, nonces, contracts, hooks, validators, delegations, other coins and the Cosmos chain id", async () => {
    a = await localNode((g) => {
      (g.app_state as Record<string, unknown>).epochs = {
        epochs: [
          {
            identifier: "minute",
            start_time: "0001-01-01T00:00:00Z",
            duration: "60s",
            current_epoch: "0",
            current_epoch_start_time: "0001-01-01T00:00:00Z",
            epoch_counting_started: false,
            current_epoch_start_height: "0",
          },
        ],
      };
    });
    const h = a.h;
    const c = compileStandard({ "Tally.sol": SOURCE });
    const deploy = await h.request<string>("eth_sendTransaction", [{ from: ALICE, data: `0x${c.output.contracts["Tally.sol"].Tally.evm.bytecode.object}` }]);
    const contract = (await h.request<{ contractAddress: string }>("eth_getTransactionReceipt", [deploy])).contractAddress;
    await h.request("eth_sendTransaction", [{ from: ALICE, to: STAKING, data: STAKING_ABI.encodeFunctionData("delegate", [ALICE, valoper(VALIDATOR), 300n * E18]), gas: q(1_000_000n) }]);
    await h.request("eth_sendTransaction", [{ from: ALICE, to: BOB, value: q(5n * E18) }]);
    await h.request("cosmos_mintCoins", [BOB, "uatom", "0x2a"]);
    await h.request("epochs_advance", ["minute"]);
    expect(await read(h, contract, "ends")).to.equal(1n);

    const exported = await h.request<Genesis>("epochs_exportGenesis");
    // local_node.sh's chain id, kept (not renamed to the Ethermint form)
    expect(exported.chain_id).to.equal("9001");
    const head = await h.request<{ timestamp: string }>("eth_getBlockByNumber", ["latest", false]);
    expect(Date.parse(exported.genesis_time) / 1000).to.equal(Number(BigInt(head.timestamp)));
    const entry = exported.app_state.evm.accounts.find((x) => x.address.toLowerCase() === contract.toLowerCase());
    expect(entry?.code).to.equal((await h.request<string>("eth_getCode", [contract, "latest"])).slice(2));
    // cosmos/evm's form: the code without 0x, storage as 32-byte hashes
    expect(entry?.storage.length).to.be.greaterThan(0);

    b = await nodeFromGenesis(exported);
    const g = b.h;
    for (const who of [ALICE, BOB, DEV0, VALIDATOR, contract]) {
      expect(await g.request("eth_getBalance", [who, "latest"]), `balance of ${who}`).to.equal(await h.request("eth_getBalance", [who, "latest"]));
      expect(await g.request("eth_getTransactionCount", [who, "latest"]), `nonce of ${who}`).to.equal(await h.request("eth_getTransactionCount", [who, "latest"]));
    }
    expect(await g.request("eth_getCode", [contract, "latest"])).to.equal(await h.request("eth_getCode", [contract, "latest"]));
    expect([await read(g, contract, "ends"), await read(g, contract, "label"), await read(g, contract, "seen", [ALICE])]).to.deep.equal([1n, "kept across the export", 7n]);
    expect(await g.request("epochs_hooks")).to.deep.equal(await h.request("epochs_hooks"));
    expect(await g.request("cosmos_validators")).to.deep.equal(await h.request("cosmos_validators"));
    expect(await g.request("cosmos_delegations", [ALICE])).to.deep.equal(await h.request("cosmos_delegations", [ALICE]));
    expect(await g.request("cosmos_balances", [BOB])).to.deep.equal(await h.request("cosmos_balances", [BOB]));
    expect(await g.request("epochs_currentEpoch", ["minute"])).to.deep.equal(await h.request("epochs_currentEpoch", ["minute"]));
    // the new chain exports what it was started from
    const again = await g.request<Genesis>("epochs_exportGenesis");
    // but for the timers' start heights, which InitGenesis sets to the new chain's (as x/epochs does)
    const heightless = (doc: Genesis) => JSON.parse(JSON.stringify(doc).replace(/"current_epoch_start_height":"\d+"/g, '"current_epoch_start_height":"-"')) as unknown;
    expect(heightless(again)).to.deep.equal(heightless(exported));

    // and its next epoch end calls the hook the export carried
    await g.request("epochs_advance", ["minute"]);
    expect(await read(g, contract, "ends")).to.equal(2n);
  });

  it("refuses a bad evm.accounts entry in a genesis, naming the field", async () => {
    const bad = (accounts: unknown) =>
      localNode((genesis) => {
        (genesis.app_state as Record<string, unknown>).evm = { accounts };
      }).then(
        () => "started",
        (err: Error) => err.message,
      );
    expect(await bad([{ address: "0x12", code: "", storage: [] }])).to.match(/app_state\.evm\.accounts\[0\]\.address: expected a 0x-prefixed 20-byte address/);
    expect(await bad([{ address: BOB, code: "zz", storage: [] }])).to.match(/app_state\.evm\.accounts\[0\]\.code: expected hex bytes/);
    expect(await bad([{ address: BOB, code: "", storage: [{ key: "0x01" }] }])).to.match(/app_state\.evm\.accounts\[0\]\.storage\[0\]\.value: expected hex bytes/);
  });
});
