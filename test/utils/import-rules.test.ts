/**
 * The import boundaries `npm run lint` enforces (eslint.config.mjs), checked on probe files the way
 * lint checks src/: rpc/ and the REST routes reach the chain through src/chain/index.ts and the
 * Cosmos modules through src/cosmos/index.ts; the composition root and the hosts reach the chain
 * through its three entries; and no layer imports one above it. A rule that stops
 * matching (a moved folder, a renamed facade) fails here, not silently.
 */
import { expect } from "chai";
import { ESLint } from "eslint";
import path from "node:path";

const ROOT = path.join(__dirname, "..", "..");

/** The messages of eslint's import rule for `code` as if it were a file `probe.ts` in `folder` (relative to the repository; no such file exists). */
async function importProblems(eslint: ESLint, folder: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(ROOT, folder, "probe.ts") });
  return result.messages.map((m) => `${m.ruleId ?? "parse"}: ${m.message}`);
}

describe("import boundaries (eslint.config.mjs)", function () {
  this.timeout(60_000);
  // the import rule needs no types: the probes are not files of the TypeScript project
  const eslint = new ESLint({
    cwd: ROOT,
    overrideConfig: { languageOptions: { parserOptions: { projectService: false, project: null } } },
    ruleFilter: ({ ruleId }) => ruleId === "no-restricted-imports",
  });

  it("rpc/ reaches the chain through its facade only", async () => {
    expect(await importProblems(eslint, "src/rpc/namespaces", 'import type { Node } from "../../chain";\nexport type X = Node;\n')).to.deep.equal([]);
    const deep = await importProblems(eslint, "src/rpc/namespaces", 'import type { Node } from "../../chain/node";\nexport type X = Node;\n');
    expect(deep.join("\n")).to.include("rpc/ imports the chain from src/chain/index.ts only");
    const raw = await importProblems(eslint, "src/rpc", 'import type { KVStore } from "../storage/kv";\nexport type X = KVStore;\n');
    expect(raw.join("\n")).to.include("rpc/ does not reach a raw store");
  });

  it("the REST routes reach the chain and the Cosmos modules through their facades", async () => {
    expect((await importProblems(eslint, "src/app/rest", 'import type { Node } from "../../chain/node";\nexport type X = Node;\n')).join("\n")).to.include("src/chain/index.ts only");
    expect((await importProblems(eslint, "src/app/rest", 'import { CosmosQueries } from "../../cosmos/query";\nexport const X = CosmosQueries;\n')).join("\n")).to.include("src/cosmos/index.ts only");
    expect(await importProblems(eslint, "src/app/rest", 'import { CosmosQueries } from "../../cosmos";\nexport const X = CosmosQueries;\n')).to.deep.equal([]);
  });

  it("rpc/ reaches the Cosmos modules through src/cosmos/index.ts", async () => {
    expect((await importProblems(eslint, "src/rpc/namespaces", 'import { ModuleError } from "../../cosmos/common/errors";\nexport const X = ModuleError;\n')).join("\n")).to.include(
      "src/cosmos/index.ts only",
    );
  });

  it("the composition root and the hosts reach the chain through its three entries only", async () => {
    const node = (folder: string, spec: string) => importProblems(eslint, folder, `import type { Node } from "${spec}";\nexport type X = Node;\n`);
    for (const [folder, up] of [
      ["src/host/node", "../../"],
      ["src/app", "../"],
      ["src/hardhat", "../"],
    ] as const) {
      expect(await node(folder, `${up}chain`), folder).to.deep.equal([]);
      expect(await node(folder, `${up}chain/setup`), folder).to.deep.equal([]);
      expect((await node(folder, `${up}chain/node`)).join("\n"), folder).to.include("src/chain/setup.ts");
    }
    expect(await importProblems(eslint, "src/host/settings", 'import type { ChainConfig } from "../../chain/config";\nexport type X = ChainConfig;\n')).to.deep.equal([]);
    const hh3 = await importProblems(eslint, "src/hardhat3", 'import { Fork } from "../chain/fork/index.js";\nexport const X = Fork;\n');
    expect(hh3.join("\n")).to.include("src/chain/setup.ts");
  });

  it("the Solidity tooling sits below the chain", async () => {
    expect((await importProblems(eslint, "src/solidity", 'import type { Node } from "../chain";\nexport type X = Node;\n')).join("\n")).to.include("imports go one way");
  });

  it("no layer imports one above it", async () => {
    expect((await importProblems(eslint, "src/chain", 'import { epochsMethods } from "../rpc/namespaces/epochs";\nexport const X = epochsMethods;\n')).join("\n")).to.include("imports go one way");
    expect((await importProblems(eslint, "src/cosmos", 'import type { RpcDeps } from "../rpc/deps";\nexport type X = RpcDeps;\n')).join("\n")).to.include("imports go one way");
    expect((await importProblems(eslint, "src/host", 'import { task } from "hardhat/config";\nexport const X = task;\n')).join("\n")).to.include("the shared host has no Hardhat import");
  });
});
