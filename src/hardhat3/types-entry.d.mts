/**
 * The types of the package's `import` entry (Hardhat 3): the plugin object, with what it adds to
 * Hardhat 3's config and network types. Hand-written and copied to dist/ by `npm run build` with
 * type-extensions.d.mts (see there why they are not compiled here).
 */
import "./type-extensions.mjs";

export { default } from "./index.mjs";
