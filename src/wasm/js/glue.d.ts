// The inlined wasm modules of the default entry, as base64 (scripts/build.mjs provides them).
declare module "planloop-wasm/core" {
  const base64: string;
  export default base64;
}
declare module "planloop-wasm/session" {
  const base64: string;
  export default base64;
}
