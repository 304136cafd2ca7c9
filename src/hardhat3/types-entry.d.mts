/**
 * The types of the package's `import` entry (Hardhat 3): the plugin object as Hardhat 3's own
 * HardhatPlugin type, with what it adds to Hardhat 3's config and network types. Hand-written and
 * copied to dist/ by `npm run build` with type-extensions.d.mts (see there why they are not compiled here).
 */
import "./type-extensions.mjs";
import type { HardhatPlugin } from "hardhat/types/plugins";

declare const hardhatEpochs: HardhatPlugin;
export default hardhatEpochs;
