/**
 * What `npx hardhat node` prints: a real node process, the repository's test contracts deployed and
 * called over HTTP, one failing, an epoch ticking with a hook that works and one that reverts; the
 * assertions read the node's stdout. Then `--quiet` (errors only) and Hardhat's `--verbose`.
 */
import { expect } from "chai";
import { Interface } from "ethers";
import { readFileSync } from "node:fs";
import hre from "hardhat";
import { type Started, startHardhatNode, stopProcessGroup, waitForOutput } from "../helpers/processes";
import { rpc } from "../helpers/json-rpc";

const FROM = "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266";
const HASH = "0x[0-9a-f]{64}";

/** The node's output after the banner, once it matches `re` (the log is written as things happen); fails after 20 s. */
async function logMatching(node: Started, re: RegExp): Promise<RegExpExecArray> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const out = node.output();
    const m = re.exec(out.slice(out.indexOf("Account #19")));
    if (m !== null) return m;
    if (Date.now() > deadline) throw new Error(`no ${re} in the node's output:\n${out}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** The line of `file` holding `text` (1-based, as Hardhat prints frames). */
function lineOf(file: string, text: string, nth = 1): number {
  const lines = readFileSync(file, "utf8").split("\n");
  let seen = 0;
  const i = lines.findIndex((l) => l.includes(text) && ++seen === nth);
  if (i < 0) throw new Error(`${text} is not in ${file}`);
  return i + 1;
}

/** Deploys and calls the repository's test contracts on a node over HTTP. */
async function scenario(url: string) {
  const art = (name: string) => hre.artifacts.readArtifact(name);
  const send = async (tx: Record<string, string>): Promise<string> => {
    const r = await rpc<string>(url, "eth_sendTransaction", [{ from: FROM, ...tx }]);
    if (r.result === undefined) throw new Error(`eth_sendTransaction: ${r.error?.message}`);
    return r.result;
  };
  const receipt = async (hash: string) =>
    (await rpc<{ contractAddress: string; gasUsed: string; blockNumber: string; blockHash: string; status: string }>(url, "eth_getTransactionReceipt", [hash])).result!;
  const deploy = async (name: string, args: unknown[] = []) => {
    const a = await art(name);
    const iface = new Interface(a.abi);
    const hash = await send({ data: a.bytecode + iface.encodeDeploy(args).slice(2) });
    return { hash, iface, ...(await receipt(hash)) };
  };
  return { send, receipt, deploy };
}

describe("npx hardhat node: the log tells the story", function () {
  this.timeout(120_000);
  let node: Started | undefined;
  after(async () => stopProcessGroup(node?.child));

  it("prints each transaction with its contract, hash, gas, block, console.log lines and revert reason, and each epoch tick with its hooks", async () => {
    node = await startHardhatNode(["--port", "0", "--json-rpc.ws-address", "127.0.0.1:0"]);
    const { send, receipt, deploy } = await scenario(node.url);

    // a deployment, named from the project's artifacts
    const counter = await deploy("DailyCounter");
    const d = await logMatching(
      node,
      new RegExp(
        `^eth_sendTransaction\\n  Contract deployment: DailyCounter\\n  Contract address:    ${counter.contractAddress}\\n  Transaction:         ${counter.hash}\\n` +
          `  From:                ${FROM}\\n  Value:               0 EVMOS\\n  Gas used:            (\\d+) of 2020020\\n  Block #(\\d+):\\s+(${HASH})\\n$`,
        "m",
      ),
    );
    expect([BigInt(d[1]), BigInt(d[2]), d[3]]).to.deep.equal([BigInt(counter.gasUsed), BigInt(counter.blockNumber), counter.blockHash]);
    const hook = await deploy("RevertingHook", [false]);

    // a call: contract#function, and its console.log lines under it, after its block line
    const logger = await deploy("Logger");
    const bump = await send({ to: logger.contractAddress, data: logger.iface.encodeFunctionData("bump", [-5, "a note"]) });
    const bumped = await receipt(bump);
    await logMatching(
      node,
      new RegExp(
        `^eth_sendTransaction\\n  Contract call:       Logger#bump\\n  Transaction:         ${bump}\\n  From:                ${FROM}\\n  To:                  ${logger.contractAddress}\\n` +
          `  Value:               0 EVMOS\\n  Gas used:            ${BigInt(bumped.gasUsed)} of 2020020\\n  Block #${BigInt(bumped.blockNumber)}:\\s+${bumped.blockHash}\\n\\n` +
          `  console\\.log:\\n    bump #1 by ${FROM}\\n    a note\\n    -5\\n    flag true\\n    0x0{60}beef\\n\\n`,
        "m",
      ),
    );

    // a failing transaction: mined with status 0, its decoded reason and its Solidity frame under it
    const reverter = await deploy("Reverter", [0]);
    const failed = await send({ to: reverter.contractAddress, data: reverter.iface.encodeFunctionData("withReason") });
    expect((await receipt(failed)).status).to.equal("0x0");
    await logMatching(
      node,
      new RegExp(
        `  Contract call:       Reverter#withReason\\n  Transaction:         ${failed}\\n(?:.*\\n){5}\\n  Error: VM Exception while processing transaction: reverted with reason string 'Reverter: no way'\\n` +
          // the Solidity frame, as Hardhat's node prints it under the error
          `      at Reverter\\.withReason \\(contracts/test/Reverter\\.sol:${lineOf("contracts/test/Reverter.sol", 'revert("Reverter: no way")')}\\)\\n\\n`,
      ),
    );

    // a custom error of the project's contracts, decoded with its arguments as Hardhat decodes it
    const custom = await send({ to: reverter.contractAddress, data: reverter.iface.encodeFunctionData("withCustom", [7]) });
    await logMatching(
      node,
      new RegExp(
        `  Contract call:       Reverter#withCustom\\n  Transaction:         ${custom}\\n(?:.*\\n){5}\\n  Error: VM Exception while processing transaction: reverted with custom error 'Custom\\(7, "custom failure"\\)'\\n` +
          `      at Reverter\\.withCustom \\(contracts/test/Reverter\\.sol:${lineOf("contracts/test/Reverter.sol", "revert Custom(code")}\\)\\n\\n`,
      ),
    );

    // repeats collapse into one line with a count
    for (let i = 0; i < 3; i++) await rpc(node.url, "eth_blockNumber");
    await rpc(node.url, "net_version");
    await logMatching(node, /^eth_blockNumber \(3\)\nnet_version$/m);

    // a day (and a minute: block times are whole seconds) later the day epoch ends (end block) and the next starts (the block after), calling both hooks
    await rpc(node.url, "evm_increaseTime", [86_400 + 60]);
    await rpc(node.url, "evm_mine");
    await rpc(node.url, "evm_mine");
    const c = escape(counter.contractAddress.toLowerCase());
    const h = escape(hook.contractAddress.toLowerCase());
    const ended = await logMatching(
      node,
      new RegExp(
        `^evm_mine\\n  Mined block #(\\d+)\\n    Block: ${HASH}\\n      Base fee: \\d+\\n    epoch day #1 ended\\n` +
          `      afterEpochEnd: DailyCounter \\(${c}\\): ok, gas used \\d+\\n      afterEpochEnd: RevertingHook \\(${h}\\): failed: execution reverted: hook says no \\(gas used \\d+\\)\\n` +
          // under the failed hook, what a failed transaction would say: Hardhat's message and the Solidity frame
          `        Error: VM Exception while processing transaction: reverted with reason string 'hook says no'\\n` +
          `          at RevertingHook\\.afterEpochEnd \\(contracts/examples/RevertingHook\\.sol:${lineOf("contracts/examples/RevertingHook.sol", 'revert("hook says no")', 2)}\\)\\n`,
        "m",
      ),
    );
    // the log prints the event's attributes: over HTTP epochs_blockEvents gives the same error and stack
    const events = (await rpc<{ end_block_events: Array<{ type: string; attributes: Array<{ key: string; value: string }> }> }>(node.url, "epochs_blockEvents", [`0x${Number(ended[1]).toString(16)}`]))
      .result!;
    const failedHook = events.end_block_events.find((e) => e.type === "epoch_hook_failed" && e.attributes.some((a) => a.key === "address" && a.value === hook.contractAddress.toLowerCase()));
    expect(Object.fromEntries(failedHook!.attributes.map((a) => [a.key, a.value]))).to.include({
      reason: "execution reverted: hook says no",
      error: "VM Exception while processing transaction: reverted with reason string 'hook says no'",
      stack: `at RevertingHook.afterEpochEnd (contracts/examples/RevertingHook.sol:${lineOf("contracts/examples/RevertingHook.sol", 'revert("hook says no")', 2)})`,
    });
    await logMatching(
      node,
      new RegExp(
        `    epoch day #2 started\\n      beforeEpochStart: DailyCounter \\(${c}\\): ok, gas used \\d+\\n      beforeEpochStart: RevertingHook \\(${h}\\): failed: execution reverted: hook says no`,
      ),
    );
  });

  it("tells pooled transactions when evm_mine or interval mining mines their block, console.log and failures included", async () => {
    if (node === undefined) throw new Error("the first test starts the node");
    const { send, deploy } = await scenario(node.url);
    const logger = await deploy("Logger");
    const reverter = await deploy("Reverter", [0]);
    await rpc(node.url, "evm_setAutomine", [false]);
    const bump = await send({ to: logger.contractAddress, data: logger.iface.encodeFunctionData("bump", [1, "pooled"]) });
    const boom = await send({ to: reverter.contractAddress, data: reverter.iface.encodeFunctionData("withoutReason") });
    await rpc(node.url, "evm_mine");
    await logMatching(
      node,
      new RegExp(
        `^evm_mine\\n  Mined block #\\d+\\n    Block: ${HASH}\\n      Base fee: \\d+\\n    Contract call:       Logger#bump\\n    Transaction:         ${bump}\\n(?:    .*\\n){4}\\n` +
          `    console\\.log:\\n      bump #\\d+ by ${FROM}\\n      pooled\\n(?:      .*\\n){3}\\n    Contract call:       Reverter#withoutReason\\n    Transaction:         ${boom}\\n(?:    .*\\n){4}\\n` +
          `    Error: Transaction reverted without a reason string\\n`,
        "m",
      ),
    );
    // interval mining: no request runs, so the block heads its own section
    const later = await send({ to: logger.contractAddress, data: logger.iface.encodeFunctionData("bump", [2, "by the timer"]) });
    await rpc(node.url, "evm_setIntervalMining", [300]);
    await logMatching(node, new RegExp(`^Mined block #\\d+\\n  Block: ${HASH}\\n    Base fee: \\d+\\n  Contract call:       Logger#bump\\n  Transaction:         ${later}\\n`, "m"));
    await rpc(node.url, "evm_setIntervalMining", [0]);
    await rpc(node.url, "evm_setAutomine", [true]);
    // hardhat_mine's reserved blocks are told as the empty blocks they stand for (docs/reserved-blocks.md)
    const head = BigInt((await rpc<string>(node.url, "eth_blockNumber")).result!);
    await rpc(node.url, "hardhat_mine", ["0x2710"]);
    await logMatching(node, new RegExp(`^hardhat_mine\\n  Mined empty block range #${head + 1n} to #\\d+\\n`, "m"));
  });

  it("with --quiet prints only the failures: a reverted transaction and a failing hook, not the requests", async () => {
    await stopProcessGroup(node?.child);
    node = await startHardhatNode(["--port", "0", "--json-rpc.ws-address", "127.0.0.1:0", "--quiet"]);
    const { send, deploy } = await scenario(node.url);
    await deploy("DailyCounter");
    await deploy("RevertingHook", [false]);
    const reverter = await deploy("Reverter", [0]);
    const failed = await send({ to: reverter.contractAddress, data: reverter.iface.encodeFunctionData("withPanic") });
    await logMatching(node, new RegExp(`^eth_sendTransaction\\n  Contract call:       Reverter#withPanic\\n  Transaction:         ${failed}\\n`, "m"));
    await logMatching(node, /^ {2}Error: VM Exception while processing transaction: reverted with panic code 0x32 \(Array accessed at an out-of-bounds or negative index\)$/m);
    await rpc(node.url, "evm_increaseTime", [86_400 + 60]);
    await rpc(node.url, "evm_mine");
    await logMatching(node, /^Mined block #\d+\n {2}Block: 0x[0-9a-f]{64}\n(?:.*\n)+? {4}afterEpochEnd: RevertingHook \(0x[0-9a-f]{40}\): failed: execution reverted: hook says no/m);
    const log = node.output().slice(node.output().indexOf("Account #19"));
    // what succeeded is not told: no deployment, no request line of its own
    expect(log).to.not.include("Contract deployment");
    expect(log).to.not.match(/^eth_getTransactionReceipt$/m);
    expect(log).to.not.match(/^evm_mine$/m);
  });

  it("with Hardhat's --verbose prints every request with its params and eth_call's answer, uncollapsed", async () => {
    await stopProcessGroup(node?.child);
    node = await startHardhatNode(["--port", "0", "--json-rpc.ws-address", "127.0.0.1:0", "--verbose"]);
    const { deploy } = await scenario(node.url);
    const logger = await deploy("Logger");
    const data = logger.iface.encodeFunctionData("peek");
    for (let i = 0; i < 2; i++) await rpc(node.url, "eth_call", [{ to: logger.contractAddress, data }, "latest"]);
    const line = escape(`eth_call  [{"to":"${logger.contractAddress}","data":"${data}"},"latest"]`);
    await logMatching(node, new RegExp(`^${line}\\n  console\\.log:\\n    peek 0\\n  Result: "0x0{64}"\\n${line}\\n`, "m"));
    await logMatching(node, new RegExp(`^eth_getTransactionReceipt  \\["${logger.hash}"\\]$`, "m"));
  });

  it("with --json-rpc.log prints every request and its answer in full, errors with their code and data", async () => {
    await stopProcessGroup(node?.child);
    node = await startHardhatNode(["--port", "0", "--json-rpc.ws-address", "127.0.0.1:0", "--json-rpc.log"]);
    const { deploy } = await scenario(node.url);
    const reverter = await deploy("Reverter", [0]);
    for (let i = 0; i < 2; i++) await rpc(node.url, "eth_chainId");
    const data = reverter.iface.encodeFunctionData("withReason");
    const failed = await rpc(node.url, "eth_call", [{ to: reverter.contractAddress, data }, "latest"]);
    expect(failed.error?.code).to.equal(3);
    const chainId = (await rpc<string>(node.url, "eth_chainId")).result!;
    // not collapsed: each request has its own pair of lines
    await logMatching(node, new RegExp(`^eth_chainId → \\[\\]\\neth_chainId ← \\{"result":"${chainId}"\\}\\neth_chainId → \\[\\]\\neth_chainId ← \\{"result":"${chainId}"\\}\\n`, "m"));
    const call = escape(`eth_call → [{"to":"${reverter.contractAddress}","data":"${data}"},"latest"]`);
    const answer = escape(`eth_call ← ${JSON.stringify({ error: failed.error })}`);
    await logMatching(node, new RegExp(`^${call}\\n(?:.*\\n)*?${answer}$`, "m"));
  });

  it("never writes a key, a passphrase or a PIN to the log, even with --json-rpc.log", async () => {
    await stopProcessGroup(node?.child);
    node = await startHardhatNode(["--port", "0", "--json-rpc.ws-address", "127.0.0.1:0", "--json-rpc.log"]);
    // the banner's lines reach the pipe in more than one chunk: the token is read once its last line is there
    await waitForOutput(node, "Account #19");
    const token = /Bearer token in .*:\n {2}([0-9a-f]{64})/.exec(node.output())?.[1];
    expect(token, node.output()).to.be.a("string");
    const auth = { authorization: `Bearer ${token}` };
    const KEY = "8da4ef21b864d2cc526dbdb2a120bd2874c36c9d0a1fb7f8c63d7f7a8b41de8f";
    const secrets = [KEY, "s3cret-pass-one", "s3cret-wrong-two", "s3cret-new-three"];
    const address = (await rpc<string>(node.url, "personal_importRawKey", [KEY, secrets[1]], auth)).result!;
    expect(address).to.match(/^0x[0-9a-f]{40}$/);
    expect((await rpc(node.url, "personal_unlockAccount", [address, secrets[2], 0], auth)).error?.message).to.equal("could not decrypt key with given password");
    expect((await rpc(node.url, "personal_unlockAccount", [address, secrets[1], 0], auth)).result).to.equal(true);
    await rpc(node.url, "personal_sign", ["0x01", address, secrets[1]], auth);
    await rpc(node.url, "personal_newAccount", [secrets[3]], auth);
    await logMatching(node, /^personal_newAccount ← /m);
    await logMatching(node, new RegExp(`^${escape(`personal_unlockAccount → ["${address}","<redacted>",0]`)}$`, "m"));
    await logMatching(node, new RegExp(`^${escape('personal_importRawKey → ["<redacted>","<redacted>"]')}$`, "m"));
    const out = node.output();
    for (const secret of secrets) expect(out, secret).to.not.include(secret);
  });
});
