/**
 * The hook matchers (src/host/helpers/epochs-matchers.ts) on the project's chai, as
 * `@nomicfoundation/hardhat-chai-matchers` puts its own there: registered when `hardhat test` starts,
 * on the chai the project's tests import (resolved from the project's root), once. A project without
 * chai gets nothing and loses nothing. Loaded with the config: chai and the matchers load only when
 * the test task runs.
 */
import { task } from "hardhat/config";
import { TASK_TEST } from "hardhat/builtin-tasks/task-names";

const registered = new WeakSet<object>();

/** Registers the matchers on the chai that `root`'s tests import; false when there is none. */
function registerEpochsMatchers(root: string): boolean {
  let chai: { use(plugin: unknown): unknown };
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- the project's chai, at test time
    chai = require(require.resolve("chai", { paths: [root] })) as typeof chai;
  } catch {
    return false;
  }
  if (registered.has(chai)) return true;
  registered.add(chai);
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded with the test task only
  const { epochsChaiMatchers } = require("../host/helpers/epochs-matchers") as typeof import("../host/helpers/epochs-matchers");
  chai.use(epochsChaiMatchers);
  return true;
}

task(TASK_TEST).setAction(async (args: unknown, hre, runSuper) => {
  registerEpochsMatchers(hre.config.paths.root);
  return runSuper(args);
});
