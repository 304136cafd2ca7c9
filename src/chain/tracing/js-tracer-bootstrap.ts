/**
 * The JavaScript every tracer's engine runs first (src/chain/tracing/js-tracer.ts): geth's helper
 * functions and the log, db, frame and ctx objects a tracer sees, whose methods call the host
 * functions (`__h_*`) the tracer installs before it. Only numbers and strings cross.
 */
export const BOOTSTRAP = `
var __fromHex = function (h) { h = String(h); if (h.slice(0, 2) === "0x" || h.slice(0, 2) === "0X") h = h.slice(2); if (h.length % 2) h = "0" + h; var out = new Uint8Array(h.length / 2); for (var i = 0; i < out.length; i++) out[i] = parseInt(h.substr(i * 2, 2), 16); return out; };
var toHex = function (b) { var s = "0x"; for (var i = 0; i < b.length; i++) { s += (b[i] < 16 ? "0" : "") + (b[i] & 255).toString(16); } return s; };
var __bytes = function (v, n) { var b = typeof v === "string" ? __fromHex(v) : typeof v === "bigint" ? __fromHex(v.toString(16)) : Uint8Array.from(v); if (b.length >= n) return b.slice(b.length - n); var out = new Uint8Array(n); out.set(b, n - b.length); return out; };
var toWord = function (v) { return __bytes(v, 32); };
var toAddress = function (v) { return __bytes(v, 20); };
var bigInt = function (v, base) { if (typeof v === "bigint") return v; if (base === 16) return BigInt("0x" + v); return BigInt(v); };
var slice = function (b, start, end) { return Uint8Array.from(b).slice(start, end); };
var toContractAddress = function (from, nonce) { return __fromHex(__h_create(toHex(toAddress(from)), Number(nonce))); };
var toContract2Address = function (from, salt, code) { return __fromHex(__h_create2(toHex(toAddress(from)), toHex(toWord(salt)), toHex(Uint8Array.from(code)))); };
var isPrecompiled = function (a) { return __h_precompiled(toHex(toAddress(a))); };
var __json = function (v) { return JSON.stringify(v, function (k, x) { if (typeof x === "bigint") return x.toString(); if (x instanceof Uint8Array) return Array.from(x); return x; }); };
var __t;
var __db = {
  getBalance: function (a) { return BigInt(__h_db("b", toHex(toAddress(a)), "")); },
  getNonce: function (a) { return Number(__h_db("n", toHex(toAddress(a)), "")); },
  getCode: function (a) { return __fromHex(__h_db("c", toHex(toAddress(a)), "")); },
  getState: function (a, s) { return __fromHex(__h_db("s", toHex(toAddress(a)), toHex(toWord(s)))); },
  exists: function (a) { return __h_db("e", toHex(toAddress(a)), "") === "1"; }
};
var __log = {
  op: { toNumber: function () { return __h_op(); }, toString: function () { return __h_opName(); }, isPush: function () { var o = __h_op(); return o >= 0x5f && o <= 0x7f; } },
  stack: { peek: function (i) { return BigInt(__h_stack(Number(i))); }, length: function () { return __h_stackLength(); } },
  memory: {
    slice: function (a, b) { return __fromHex(__h_memory(Number(a), Number(b))); },
    getUint: function (o) { return BigInt(__h_memoryWord(Number(o))); },
    length: function () { return __h_memoryLength(); }
  },
  contract: {
    getCaller: function () { return __fromHex(__h_contract("caller")); },
    getAddress: function () { return __fromHex(__h_contract("address")); },
    getValue: function () { return BigInt(__h_contract("value")); },
    getInput: function () { return __fromHex(__h_contract("input")); }
  },
  getPC: function () { return __h_num("pc"); },
  getGas: function () { return __h_num("gas"); },
  getCost: function () { return __h_num("cost"); },
  getDepth: function () { return __h_num("depth"); },
  getRefund: function () { return __h_num("refund"); },
  getError: function () { var e = __h_error(); return e === "" ? undefined : e; }
};
var __load = function (src) {
  __t = eval("(" + src + ")");
  if (__t === null || typeof __t !== "object") return "not an object";
  var f = function (k) { return typeof __t[k] === "function" ? "1" : "0"; };
  return f("result") + f("fault") + f("enter") + f("exit") + f("step") + f("setup");
};
var __setup = function (cfg) { __t.setup(JSON.parse(cfg)); };
var __step = function () { __t.step(__log, __db); };
var __fault = function () { __t.fault(__log, __db); };
var __enter = function (j) {
  var f = JSON.parse(j);
  __t.enter({
    getType: function () { return f.type; }, getFrom: function () { return __fromHex(f.from); }, getTo: function () { return f.to === null ? undefined : __fromHex(f.to); },
    getInput: function () { return __fromHex(f.input); }, getGas: function () { return f.gas; }, getValue: function () { return f.value === null ? undefined : BigInt(f.value); }
  });
};
var __exit = function (j) {
  var r = JSON.parse(j);
  __t.exit({ getGasUsed: function () { return r.gasUsed; }, getOutput: function () { return __fromHex(r.output); }, getError: function () { return r.error === null ? undefined : r.error; } });
};
var __result = function (j) {
  var c = JSON.parse(j);
  ["from", "to", "input", "output", "blockHash", "txHash"].forEach(function (k) { if (c[k] !== undefined) c[k] = __fromHex(c[k]); });
  c.value = BigInt(c.value);
  var r = __json(__t.result(c, __db));
  return r === undefined ? "null" : r;
};
`;
