// A project whose config loads only the built plugin (dist/, as users load it; `npm run build`).
import type { HardhatUserConfig } from "hardhat/types";
// a path, not a typed import: type-checking this repository must not need dist/ to exist
// eslint-disable-next-line @typescript-eslint/no-require-imports
require("../../../dist/src");

const config: HardhatUserConfig = { solidity: "0.8.30" };
export default config;
