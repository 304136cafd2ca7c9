/**
 * debug_* runtime methods with their Node.js meaning: memory and GC figures under geth's field
 * names where they map, a forced GC, the process's stacks, V8 CPU profiles and heap snapshots
 * through `node:inspector`, the node's log level; Go-only ones answer why they are not available.
 */
import { closeSync, openSync, writeSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { Session } from "node:inspector/promises";
import { PerformanceObserver } from "node:perf_hooks";
import { getHeapStatistics, setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { getVerbosity, setVerbosity, setVmodule } from "../../../utils/log-level";
import { ServerError } from "../../errors";
import { type MethodSpec, method, unsupported } from "../../method";
import { ParamError, codec, jsonType, string } from "../../params";
import { type FileRoots, FilePathError, reserveNew } from "./files";
import { goUint64 } from "./raw";

/** A Go int parameter: a JSON number. */
const goInt = codec((v): number => {
  if (typeof v !== "number" || !Number.isInteger(v)) throw new ParamError(`json: cannot unmarshal ${jsonType(v)} into Go value of type int`);
  return v;
});

// ------------------------------------------------------------------ GC figures (one observer per process)

interface GcFigures {
  count: number;
  totalNs: number;
  /** Most recent first, at most 256 (geth's MemStats keeps a 256-entry ring). */
  pauses: number[];
  ends: number[];
}

const gc: GcFigures = { count: 0, totalNs: 0, pauses: [], ends: [] };
let observing = false;

function observeGc(): void {
  if (observing) return;
  observing = true;
  const obs = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      const ns = Math.round(e.duration * 1e6);
      gc.count++;
      gc.totalNs += ns;
      gc.pauses.unshift(ns);
      gc.ends.unshift(Math.round((performance.timeOrigin + e.startTime + e.duration) * 1e6));
      if (gc.pauses.length > 256) {
        gc.pauses.pop();
        gc.ends.pop();
      }
    }
  });
  obs.observe({ entryTypes: ["gc"] });
  (obs as unknown as { unref?: () => void }).unref?.();
}

let forceGc: (() => void) | undefined;

function collect(): void {
  if (forceGc === undefined) {
    // V8 exposes gc() to contexts created after the flag is set
    setFlagsFromString("--expose-gc");
    forceGc = runInNewContext("gc") as () => void;
  }
  forceGc();
}

// ------------------------------------------------------------------ profiles

let cpu: { session: Session; file: string } | undefined;

async function startCpu(file: string): Promise<void> {
  const session = new Session();
  session.connect();
  await session.post("Profiler.enable");
  await session.post("Profiler.start");
  cpu = { session, file };
}

async function stopCpu(): Promise<string> {
  const c = cpu;
  if (c === undefined) throw new ServerError("CPU profiling not in progress");
  cpu = undefined;
  try {
    const { profile } = await c.session.post("Profiler.stop");
    await writeFile(c.file, JSON.stringify(profile));
    return c.file;
  } finally {
    c.session.disconnect();
  }
}

/**
 * Writes V8's heap snapshot into `file` (made empty by reserveNew) chunk by chunk as the inspector
 * hands them over, during the snapshot: a long-running node's snapshot can outgrow V8's longest
 * string (~512 MB), so the chunks are never held or joined in memory.
 */
async function heapSnapshot(file: string): Promise<void> {
  const fd = openSync(file, "w");
  let failed: unknown;
  const session = new Session();
  session.connect();
  session.on("HeapProfiler.addHeapSnapshotChunk", (m) => {
    if (failed !== undefined) return;
    try {
      writeSync(fd, m.params.chunk);
    } catch (err) {
      failed = err;
    }
  });
  try {
    await session.post("HeapProfiler.takeHeapSnapshot", { reportProgress: false });
  } finally {
    session.disconnect();
    closeSync(fd);
  }
  if (failed !== undefined) throw failed;
}

async function fileFor(roots: FileRoots, file: string): Promise<string> {
  try {
    return await reserveNew(roots, file);
  } catch (err) {
    if (err instanceof FilePathError) throw new ServerError(err.message);
    throw err;
  }
}

const GO_TRACE = "Go execution traces (runtime/trace) have no Node.js counterpart; use debug_startCPUProfile for a V8 CPU profile";
const GO_BLOCK = "Go's blocking profile (goroutines waiting on channels and locks) has no Node.js counterpart: JavaScript runs on one thread and does not block";
const GO_MUTEX = "Go's mutex contention profile has no Node.js counterpart: JavaScript runs on one thread without mutexes";

export function runtimeMethods(roots: FileRoots): MethodSpec[] {
  observeGc();
  return [
    method({
      name: "debug_memStats",
      access: "read",
      params: [],
      doc: "The process's memory figures under the names of Go's runtime.MemStats where they map: Alloc/HeapAlloc/HeapInuse = V8 heap used, HeapSys = V8 heap size, HeapIdle = the difference, Sys = resident set size, OtherSys = memory outside the V8 heap, NextGC = V8's heap limit; NumGC, PauseTotalNs, LastGC, PauseNs, PauseEnd from V8's GC events.",
      handler() {
        const m = process.memoryUsage();
        const h = getHeapStatistics();
        return {
          Alloc: m.heapUsed,
          Sys: m.rss,
          HeapAlloc: m.heapUsed,
          HeapSys: m.heapTotal,
          HeapIdle: m.heapTotal - m.heapUsed,
          HeapInuse: m.heapUsed,
          OtherSys: m.external,
          NextGC: h.heap_size_limit,
          LastGC: gc.ends[0] ?? 0,
          PauseTotalNs: gc.totalNs,
          PauseNs: gc.pauses,
          PauseEnd: gc.ends,
          NumGC: gc.count,
          EnableGC: true,
        };
      },
    }),
    method({
      name: "debug_gcStats",
      access: "read",
      params: [],
      doc: "Go's GCStats from V8's GC events: LastGC (time), NumGC, PauseTotal (ns), Pause (ns, most recent first), PauseEnd (times), PauseQuantiles (null, as geth leaves it).",
      handler() {
        return {
          LastGC: new Date(Math.floor((gc.ends[0] ?? 0) / 1e6)).toISOString(),
          NumGC: gc.count,
          PauseTotal: gc.totalNs,
          Pause: gc.pauses,
          PauseEnd: gc.ends.map((ns) => new Date(Math.floor(ns / 1e6)).toISOString()),
          PauseQuantiles: null,
        };
      },
    }),
    method({
      name: "debug_freeOSMemory",
      params: [],
      access: "private",
      doc: "Runs a full garbage collection now (V8's gc()); answers null.",
      handler() {
        collect();
        return null;
      },
    }),
    unsupported("debug_setGCPercent", "V8's collector has no GOGC-style percent to set (its heap grows up to --max-old-space-size, fixed at start)", "private"),
    method({
      name: "debug_stacks",
      access: "private",
      params: [],
      doc: "The process's stacks as text: the JavaScript stack of the request and the native stack (Node's diagnostic report); Node has one JavaScript thread where Go has goroutines.",
      handler() {
        const report = process.report.getReport() as unknown as {
          javascriptStack?: { message?: string; stack?: string[] };
          nativeStack?: Array<{ pc: string; symbol: string }>;
          header?: { threadId?: number };
        };
        const js = report.javascriptStack?.stack ?? [];
        const native = report.nativeStack ?? [];
        return [`thread ${report.header?.threadId ?? 0} [JavaScript]:`, ...js.map((l) => `\t${l.trim()}`), "", "native:", ...native.map((f) => `\t${f.pc} ${f.symbol}`), ""].join("\n");
      },
    }),
    method({
      name: "debug_cpuProfile",
      params: [string, goUint64],
      access: "private",
      doc: "Records a V8 CPU profile for N seconds into a new .cpuprofile file (Chrome DevTools opens it) under the node's home or working directory; the call answers when done.",
      async handler([file, seconds]) {
        if (cpu !== undefined) throw new ServerError("CPU profiling already in progress");
        const full = await fileFor(roots, file);
        await startCpu(full);
        await new Promise((r) => setTimeout(r, Number(seconds) * 1000));
        await stopCpu();
        return null;
      },
    }),
    method({
      name: "debug_startCPUProfile",
      params: [string],
      access: "private",
      doc: "Starts a V8 CPU profile written to a new file at debug_stopCPUProfile.",
      async handler([file]) {
        if (cpu !== undefined) throw new ServerError("CPU profiling already in progress");
        await startCpu(await fileFor(roots, file));
        return null;
      },
    }),
    method({
      name: "debug_stopCPUProfile",
      params: [],
      access: "private",
      doc: "Stops the CPU profile and writes it (V8 .cpuprofile JSON).",
      async handler() {
        await stopCpu();
        return null;
      },
    }),
    method({
      name: "debug_writeMemProfile",
      params: [string],
      access: "private",
      doc: "Writes a V8 heap snapshot (.heapsnapshot JSON, Chrome DevTools opens it) to a new file.",
      async handler([file]) {
        await heapSnapshot(await fileFor(roots, file));
        return null;
      },
    }),
    method({
      name: "debug_verbosity",
      params: [goInt],
      access: "private",
      doc: "Sets the node's log level (geth's 0–5: silent, error, warn, info, debug, trace): the node log prints failures at error (1), requests, transactions, blocks and epochs at info (3), request params and call results at debug (4).",
      handler([level]) {
        if (level < 0 || level > 5) throw new ServerError(`invalid log level ${level}: expected 0 (silent) to 5 (trace), now ${getVerbosity()}`);
        setVerbosity(level);
        return null;
      },
    }),
    method({
      name: "debug_vmodule",
      params: [string],
      access: "private",
      doc: "Sets per-module log levels in geth's form (`rpc=4,chain*=2`); modules: rpc (the request log). An empty string clears it.",
      handler([spec]) {
        try {
          setVmodule(spec);
        } catch (err) {
          throw new ServerError((err as Error).message);
        }
        return null;
      },
    }),
    unsupported("debug_goTrace", GO_TRACE, "private"),
    unsupported("debug_startGoTrace", GO_TRACE, "private"),
    unsupported("debug_stopGoTrace", GO_TRACE, "private"),
    unsupported("debug_blockProfile", GO_BLOCK, "private"),
    unsupported("debug_writeBlockProfile", GO_BLOCK, "private"),
    unsupported("debug_setBlockProfileRate", GO_BLOCK, "private"),
    unsupported("debug_mutexProfile", GO_MUTEX, "private"),
    unsupported("debug_writeMutexProfile", GO_MUTEX, "private"),
    unsupported("debug_setMutexProfileFraction", GO_MUTEX, "private"),
    unsupported("debug_seedHash", "ethash seed hashes belong to proof-of-work; this chain has no ethash epochs"),
    unsupported("debug_backtraceAt", "it makes Go's logger print a goroutine backtrace at a Go source line (file.go:line); the node is JavaScript, with no such lines", "private"),
  ];
}
