/**
 * scripts/check-cycles.ts, which `npm run lint` runs: it finds a cycle however long, once, and src/
 * has none (the same check lint makes, so a cycle fails the suite too).
 */
import { expect } from "chai";
import { cycles, importGraph } from "../../scripts/check-cycles";

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
    expect(cycles(new Map([["x", ["y"]], ["y", []]]))).to.deep.equal([]);
  });

  it("reads src/'s imports (static, type-only and require()) and finds no cycle", () => {
    const graph = importGraph();
    const lazy = [...graph.entries()].find(([f]) => f.endsWith("src/hardhat/node-task.ts"))?.[1] ?? [];
    // a require() counts: the node task's deferred load of the node service is an edge
    expect(lazy.some((d) => d.endsWith("src/host/node/node-service.ts"))).to.equal(true);
    expect(cycles(graph)).to.deep.equal([]);
  });
});
