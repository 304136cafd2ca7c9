/**
 * The JavaScript engine tracers run in: QuickJS compiled to WebAssembly (quickjs-emscripten), a
 * separate engine with its own heap. Code inside it reaches nothing of the node: no `process`, no
 * `require`, no host objects — only the values and functions a tracer is explicitly handed, which
 * take and give strings and numbers (copies). See docs/security.md.
 *
 * The WebAssembly module is compiled once per process; each tracer gets an instance of its own over
 * a WebAssembly memory with a maximum, dropped when the tracer is done. The maximum is the memory
 * cap: QuickJS's own limit does not count every allocation (typed arrays' data escape it in this
 * build), a WebAssembly memory cannot grow past its maximum, and an instance's memory is freed with
 * the instance (a shared one would keep whatever a tracer once grew it to).
 */
import { readFileSync } from "node:fs";
import { type QuickJSWASMModule, newQuickJSWASMModuleFromVariant, newVariant } from "quickjs-emscripten-core";
import variant from "@jitl/quickjs-wasmfile-release-sync";

/** The whole WebAssembly memory of one tracer's engine: its heap, stack and QuickJS's own data. */
export const TRACER_MEMORY_LIMIT = 64 * 1024 * 1024;
/** Native stack of one tracer's runtime (deep recursion ends with a stack overflow error). */
export const TRACER_STACK_LIMIT = 256 * 1024;
/**
 * How long one call into a tracer (its top level, setup, step, enter, exit, fault, result) may run.
 * The engine runs on the node's thread: this bounds how long a tracer can keep other requests
 * waiting. geth bounds only the whole trace (`timeout`); a tracer function that needs more than this
 * for one call is stopped with "execution timeout" too.
 */
export const TRACER_CALL_SLICE_MS = 250;

const PAGE = 64 * 1024;
/** What the module needs before any tracer code runs (its static data and the first runtime). */
const INITIAL_PAGES = 256;

/** Node's WebAssembly global (its types come with the DOM library, which this build leaves out). */
interface WasmApi {
  compile(bytes: Uint8Array): Promise<object>;
  Memory: new (descriptor: { initial: number; maximum: number }) => object;
}
const wasm = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;

let compiled: Promise<object> | undefined;

function wasmModule(): Promise<object> {
  const p = (compiled ??= wasm.compile(readFileSync(require.resolve("@jitl/quickjs-wasmfile-release-sync/wasm"))).catch((err: unknown) => {
    compiled = undefined;
    throw err;
  }));
  return p;
}

/** A QuickJS engine of its own for one tracer: a fresh instance over a capped memory. */
export async function newTracerEngine(): Promise<QuickJSWASMModule> {
  const memory = new wasm.Memory({ initial: INITIAL_PAGES, maximum: Math.max(INITIAL_PAGES, TRACER_MEMORY_LIMIT / PAGE) });
  return newQuickJSWASMModuleFromVariant(newVariant(variant, { wasmModule: (await wasmModule()) as never, wasmMemory: memory as never }));
}
