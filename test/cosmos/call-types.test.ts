/**
 * A stateful precompile acts only for the account that called it. Under DELEGATECALL the EVM keeps the
 * caller's caller as msg.sender (and CALLCODE runs the code as the calling contract), so a contract
 * that delegate-called WERC20's `transfer` once moved its victim's coins. The precompile framework
 * (src/chain/base/precompile.ts) refuses every method that writes under DELEGATECALL, CALLCODE and
 * STATICCALL, as cosmos/evm does ("write protection"), and answers queries through every call type.
 * Every transaction method of every stateful precompile is tried here, over HTTP.
 */
import { expect } from "chai";
import { type FunctionFragment, Interface, type ParamType, Wallet, ZeroAddress } from "ethers";
import { serveHttp } from "../helpers/http";
import { type Harness, testChainConfig } from "../helpers/harness";
import { compile } from "../helpers/solc";
import { NATIVE_ERC20 } from "../../src/cosmos/bank/precompile";
import { WERC20_ABI } from "../../src/cosmos/erc20/precompile";
import { STAKING_ABI, STAKING_TRANSACTIONS } from "../../src/cosmos/staking/precompile";
import { STAKING_PRECOMPILE } from "../../src/cosmos/staking/types";
import { DISTRIBUTION_ABI, DISTRIBUTION_TRANSACTIONS } from "../../src/cosmos/distribution/precompile";
import { DISTRIBUTION_PRECOMPILE } from "../../src/cosmos/distribution/keeper";
import { ICS20_ABI, ICS20_TRANSACTIONS } from "../../src/cosmos/ics20/precompile";
import { ICS20_PRECOMPILE } from "../../src/cosmos/ics20/keeper";
import { GOV_PRECOMPILE } from "../../src/cosmos/gov/keeper";
import { GOV_ABI, GOV_TRANSACTIONS } from "../../src/cosmos/gov/precompile";
import { SLASHING_ABI, SLASHING_TRANSACTIONS } from "../../src/cosmos/slashing/precompile";
import { SLASHING_PRECOMPILE } from "../../src/cosmos/slashing/keeper";
import { EPOCHS_ABI, EPOCHS_PRECOMPILE } from "../../src/epochs/precompile";

const KEY = "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80";
const VICTIM = new Wallet(KEY).address;
const THIEF = "0x000000000000000000000000000000000000dEaD";

const CONTRACTS = compile(`
// SPDX-License-Identifier: MIT
pragma solidity ^0.8.0;
contract Prober {
  /** kind: 0 CALL, 1 DELEGATECALL, 2 STATICCALL, 3 CALLCODE */
  function probe(address p, bytes memory data, uint8 kind) public payable returns (bool ok, bytes memory out) {
    if (kind == 0) return p.call{value: msg.value}(data);
    if (kind == 1) return p.delegatecall(data);
    if (kind == 2) return p.staticcall(data);
    uint256 v = msg.value;
    uint256 size;
    assembly { ok := callcode(gas(), p, v, add(data, 32), mload(data), 0, 0) size := returndatasize() }
    out = new bytes(size);
    assembly { returndatacopy(add(out, 32), 0, size) }
  }
  /** What a thief's claim() did: its victim calls it, and it acts through the precompile "as" the victim. */
  function claim(address token, address thief, uint8 kind) external payable {
    probe(token, abi.encodeWithSignature("transfer(address,uint256)", thief, 1 ether), kind);
    probe(token, abi.encodeWithSignature("approve(address,uint256)", thief, type(uint256).max), kind);
  }
}
`);
const PROBER = new Interface(CONTRACTS.Prober.abi as never);
const ERROR = new Interface(["error Error(string)"]);
const KINDS = { CALL: 0, DELEGATECALL: 1, STATICCALL: 2, CALLCODE: 3 } as const;

/** A value of `type` that decodes: zeros, empty strings and lists. */
function zero(type: ParamType): unknown {
  if (type.baseType === "array") return type.arrayLength !== null && type.arrayLength > 0 ? Array.from({ length: type.arrayLength }, () => zero(type.arrayChildren as ParamType)) : [];
  if (type.baseType === "tuple") return (type.components ?? []).map(zero);
  if (type.baseType === "address") return ZeroAddress;
  if (type.baseType === "string") return "";
  if (type.baseType === "bool") return false;
  if (type.baseType === "bytes") return "0x";
  if (type.baseType.startsWith("bytes")) return `0x${"00".repeat(Number(type.baseType.slice(5)))}`;
  return 0;
}

function callData(abi: Interface, fn: FunctionFragment): string {
  return abi.encodeFunctionData(fn, fn.inputs.map(zero));
}

interface Probe {
  ok: boolean;
  reason?: string;
}

async function probe(h: Harness, prober: string, to: string, data: string, kind: number): Promise<Probe> {
  const out = PROBER.decodeFunctionResult("probe", await h.request<string>("eth_call", [{ from: VICTIM, to: prober, data: PROBER.encodeFunctionData("probe", [to, data, kind]) }, "latest"]));
  const bytes = out[1] as string;
  return { ok: out[0] as boolean, reason: bytes.startsWith("0x08c379a0") ? (ERROR.decodeErrorResult("Error", bytes)[0] as string) : undefined };
}

async function deploy(h: Harness): Promise<string> {
  const hash = await h.request<string>("eth_sendTransaction", [{ from: VICTIM, data: CONTRACTS.Prober.bytecode, gas: "0x2dc6c0" }]);
  return (await h.request<{ contractAddress: string }>("eth_getTransactionReceipt", [hash])).contractAddress;
}

const STATEFUL: Array<{ name: string; address: string; abi: Interface; writes: ReadonlySet<string>; refusal: (fn: string) => string }> = [
  { name: "staking", address: STAKING_PRECOMPILE, abi: STAKING_ABI, writes: STAKING_TRANSACTIONS, refusal: () => "write protection" },
  { name: "distribution", address: DISTRIBUTION_PRECOMPILE, abi: DISTRIBUTION_ABI, writes: DISTRIBUTION_TRANSACTIONS, refusal: () => "write protection" },
  { name: "ICS20", address: ICS20_PRECOMPILE, abi: ICS20_ABI, writes: ICS20_TRANSACTIONS, refusal: () => "write protection" },
  { name: "gov", address: GOV_PRECOMPILE, abi: GOV_ABI, writes: GOV_TRANSACTIONS, refusal: () => "write protection" },
  { name: "slashing", address: SLASHING_PRECOMPILE, abi: SLASHING_ABI, writes: SLASHING_TRANSACTIONS, refusal: () => "write protection" },
  { name: "WERC20", address: NATIVE_ERC20, abi: WERC20_ABI, writes: new Set(["transfer", "transferFrom", "approve", "deposit", "withdraw"]), refusal: () => "write protection" },
  {
    name: "epochs",
    address: EPOCHS_PRECOMPILE,
    abi: EPOCHS_ABI,
    writes: new Set(["registerHooks", "unregisterHooks"]),
    refusal: (fn) => `epochs precompile: ${fn} through DELEGATECALL or CALLCODE acts for no caller`,
  },
];

for (const profile of ["evmos", "cosmos-evm"] as const) {
  describe(`stateful precompiles refuse writes for a caller that did not call them (${profile} profile, over HTTP)`, function () {
    let h: Harness;
    let prober: string;
    before(async () => {
      // the Cosmos modules are on under cosmos-evm by default, under evmos when asked
      h = await serveHttp({ chain: testChainConfig({ throwOnTransactionFailures: false }), epochs: { profile }, cosmos: { staking: true } });
      prober = await deploy(h);
    });
    after(async () => h.close());

    for (const p of STATEFUL) {
      it(`${p.name}: every method that writes is refused under DELEGATECALL, CALLCODE and STATICCALL; its queries answer`, async () => {
        const writes = p.abi.fragments.filter((f): f is FunctionFragment => f.type === "function" && p.writes.has((f as FunctionFragment).name));
        expect(writes.length, "methods that write").to.equal(p.writes.size);
        for (const fn of writes) {
          const data = callData(p.abi, fn);
          for (const kind of [KINDS.DELEGATECALL, KINDS.CALLCODE] as const) {
            expect(await probe(h, prober, p.address, data, kind), `${fn.name} kind ${kind}`).to.deep.equal({ ok: false, reason: p.refusal(fn.name) });
          }
          expect((await probe(h, prober, p.address, data, KINDS.STATICCALL)).ok, `${fn.name} static`).to.equal(false);
        }
        const query = p.abi.fragments.find((f): f is FunctionFragment => f.type === "function" && (f as FunctionFragment).stateMutability === "view" && !p.writes.has((f as FunctionFragment).name));
        if (query !== undefined) {
          const data = callData(p.abi, query);
          const direct = await probe(h, prober, p.address, data, KINDS.CALL);
          for (const kind of [KINDS.DELEGATECALL, KINDS.STATICCALL, KINDS.CALLCODE]) expect(await probe(h, prober, p.address, data, kind), `${query.name} kind ${kind}`).to.deep.equal(direct);
        }
      });
    }

    it("a contract's claim() that delegate-calls WERC20's transfer and approve in its victim's name moves nothing and approves nothing", async () => {
      const werc20 = WERC20_ABI;
      const balance = async (a: string) => BigInt(await h.request<string>("eth_getBalance", [a, "latest"]));
      const allowance = async () =>
        BigInt(
          werc20.decodeFunctionResult("allowance", await h.request<string>("eth_call", [{ to: NATIVE_ERC20, data: werc20.encodeFunctionData("allowance", [VICTIM, THIEF]) }, "latest"]))[0] as bigint,
        );
      const thiefBefore = await balance(THIEF);
      for (const kind of [KINDS.DELEGATECALL, KINDS.CALLCODE]) {
        const hash = await h.request<string>("eth_sendTransaction", [{ from: VICTIM, to: prober, data: PROBER.encodeFunctionData("claim", [NATIVE_ERC20, THIEF, kind]), gas: "0x7a120" }]);
        expect((await h.request<{ status: string }>("eth_getTransactionReceipt", [hash])).status).to.equal("0x1");
      }
      expect(await balance(THIEF)).to.equal(thiefBefore);
      expect(await allowance()).to.equal(0n);
    });

    it("WERC20's deposit through CALLCODE pays out nothing that did not arrive", async () => {
      const balance = async (a: string) => BigInt(await h.request<string>("eth_getBalance", [a, "latest"]));
      // value stranded at the pair's own account
      await h.request("hardhat_setBalance", [NATIVE_ERC20, "0x29a2241af62c0000"]);
      const pairBefore = await balance(NATIVE_ERC20);
      expect(pairBefore).to.be.greaterThan(0n);
      const proberBefore = await balance(prober);
      const deposit = WERC20_ABI.encodeFunctionData("deposit", []);
      const hash = await h.request<string>("eth_sendTransaction", [
        { from: VICTIM, to: prober, value: "0x1", data: PROBER.encodeFunctionData("probe", [NATIVE_ERC20, deposit, KINDS.CALLCODE]), gas: "0x7a120" },
      ]);
      expect((await h.request<{ status: string }>("eth_getTransactionReceipt", [hash])).status).to.equal("0x1");
      expect(await balance(NATIVE_ERC20)).to.equal(pairBefore);
      expect(await balance(prober)).to.equal(proberBefore + 1n);
    });
  });
}
