/** A project whose Hardhat network uses its own mnemonic: the node must not print those keys. */
import "../../../src";

export default {
  solidity: "0.8.30",
  networks: { hardhat: { accounts: { mnemonic: "candy maple cake sugar pudding cream honey rich smooth crumble sweet treat", count: 3 } } },
};
