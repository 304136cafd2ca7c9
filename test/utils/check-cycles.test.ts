/**
 * scripts/check-cycles.ts, which `npm run lint` runs: it finds a cycle however long, once, and src/
 * has none, between files or between folders (the same checks lint makes, so a cycle fails the suite too).
 */
import { expect } from "chai";
import path from "node:path";
import { cycles, folderGraph, importGraph } from "../../scripts/check-cycles";

const SRC = path.resolve(__dirname, "../../src");

describe("the import-cycle check", () => {
  it("finds each cycle of a graph once, whatever its length, and nothing in a graph without one", () => {
    const graph = new Map([
      ["a", ["b"]],
      ["b", ["c"]],
      ["c", ["a", "d"]],
      ["d", ["e"]],
      ["e", ["d"]],
      ["f", ["a"]],
    ]);
    expect(cycles(graph)).to.have.deep.members([
      ["a", "b", "c"],
      ["d", "e"],
    ]);
    expect(
      cycles(
        new Map([
          ["x", ["y"]],
          ["y", []],
        ]),
      ),
    ).to.deep.equal([]);
  });

  it("reads src/'s imports (static, type-only and require()) and finds no cycle", () => {
    const graph = importGraph();
    const lazy = [...graph.entries()].find(([f]) => f.endsWith("src/hardhat/node-task.ts"))?.[1] ?? [];
    // a require() counts: the node task's deferred load of the node service is an edge
    expect(lazy.some((d) => d.endsWith("src/host/node/node-service.ts"))).to.equal(true);
    expect(cycles(graph)).to.deep.equal([]);
  });

  it("one level up, with each folder of src/ (and a top folder's loose files) as one node, finds no cycle either", () => {
    const folders = folderGraph(importGraph());
    // the nodes are folders: src/chain's parts and its loose files apart
    expect([...folders.keys()]).to.include.members(["chain/.", "chain/base", "chain/engine", "cosmos/.", "cosmos/staking", "cosmos/common"]);
    expect(folders.get("chain/base")).to.not.include("chain/engine");
    expect(cycles(folders)).to.deep.equal([]);
    // and a folder cycle is found as files are: two folders importing each other
    const made = folderGraph(
      new Map([
        [`${SRC}/a/x/f.ts`, [`${SRC}/a/y/g.ts`]],
        [`${SRC}/a/y/g.ts`, [`${SRC}/a/x/h.ts`]],
        [`${SRC}/a/x/h.ts`, []],
      ]),
    );
    expect(cycles(made)).to.deep.equal([["a/x", "a/y"]]);
  });
});
