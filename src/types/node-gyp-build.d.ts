// node-gyp-build ships no types: it loads the prebuilt N-API binary of the package in `dir`.
declare module "node-gyp-build" {
  function load(dir: string): unknown;
  export = load;
}
