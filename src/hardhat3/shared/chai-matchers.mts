/**
 * The hook matchers (src/host/helpers/epochs-matchers.ts) on the chai a Hardhat 3 project's tests
 * import, as hardhat-ethers-chai-matchers puts its own there: registered with the first network
 * connection, once. `chai` is imported from this package's place in the project's node_modules, which
 * finds the project's own; a project without chai (node:test) gets nothing and loses nothing.
 */
import matchersModule from "../../host/helpers/epochs-matchers.js";

let registering: Promise<void> | undefined;

export function registerEpochsMatchers(): Promise<void> {
  registering ??= (async () => {
    // a specifier in a variable: the project's chai (chai 5), not the one this repository's types describe
    const specifier = "chai";
    let chai: { use(plugin: unknown): unknown };
    try {
      chai = (await import(specifier)) as typeof chai;
    } catch {
      return;
    }
    chai.use(matchersModule.epochsChaiMatchers);
  })();
  return registering;
}
