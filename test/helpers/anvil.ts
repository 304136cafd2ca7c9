/** Anvil (Foundry's dev node) from its npm package, which ships the binary: for differential tests. */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { type Harness, inProcess, testChainConfig } from "./harness";
import { freePort } from "./processes";
import { type Deployed, runCorpus } from "./trace-corpus";

/** The binary of the installed `@foundry-rs/anvil-<platform>` package; undefined where npm installed none. */
export function anvilBinary(): string | undefined {
  try {
    const pkg = require.resolve(`@foundry-rs/anvil-${process.platform === "win32" ? "win32" : process.platform}-${process.arch === "x64" ? "amd64" : process.arch}/package.json`);
    const bin = join(dirname(pkg), "bin", process.platform === "win32" ? "anvil.exe" : "anvil");
    return existsSync(bin) ? bin : undefined;
  } catch {
    return undefined;
  }
}

/** Anvil on 127.0.0.1 (a free port), Prague, chain id 9000, as the differential tests compare. */
export async function startAnvil(bin: string, extraArgs: string[] = []): Promise<{ h: Harness; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(
    bin,
    ["--host", "127.0.0.1", "--port", String(port), "--hardfork", "prague", "--chain-id", "9000", "--gas-limit", "60000000", "--base-fee", "875000000", "--steps-tracing", "--silent", ...extraArgs],
    { stdio: "ignore" },
  );
  const url = `http://127.0.0.1:${port}/`;
  let id = 1;
  const request = async <T>(method: string, params: unknown[] = []): Promise<T> => {
    const res = (await (await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: id++, method, params }) })).json()) as {
      result?: T;
      error?: { code: number; message: string };
    };
    if (res.error !== undefined) throw Object.assign(new Error(res.error.message), res.error);
    return res.result as T;
  };
  for (let i = 0; ; i++) {
    try {
      await request("eth_chainId");
      break;
    } catch (err) {
      if (i >= 100 || child.exitCode !== null) throw err;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  const h: Harness = { name: "http", runtime: undefined as never, url, raw: () => Promise.reject(new Error("not used")), request, close: async () => void child.kill() };
  return { h, child };
}

/**
 * The differential tests' setup: the trace corpus (test/helpers/trace-corpus.ts) sent to a fresh
 * Anvil and to this node (in-process, Prague, failures answered rather than thrown) with the same
 * keys, gas and `gasPrice`, Anvil's coinbase set to ours, so hashes, receipts and addresses match.
 */
export async function corpusOnBoth(bin: string, gasPrice: string): Promise<{ anvil: Harness; ours: Harness; a: Deployed; o: Deployed }> {
  const { h: anvil } = await startAnvil(bin);
  await anvil.request("anvil_setCoinbase", ["0xc014ba5ec014ba5ec014ba5ec014ba5ec014ba5e"]);
  const ours = await inProcess({ chain: { ...testChainConfig(), hardfork: "prague", throwOnTransactionFailures: false } });
  return { anvil, ours, a: await runCorpus(anvil, { gasPrice }), o: await runCorpus(ours, { gasPrice }) };
}

/** The corpus's transactions by name, the deployment first (the same names on both chains). */
export function txNames(d: Deployed): string[] {
  return ["deploy", ...Object.keys(d.txs)];
}

/** The hash of the corpus transaction `name` on the chain `d` was run on. */
export function txHash(d: Deployed, name: string): string {
  return name === "deploy" ? d.deployTx : d.txs[name];
}
