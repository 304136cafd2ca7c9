/**
 * geth's built-in JavaScript tracers that count opcodes, by name, written for the tracer engine:
 * unigramTracer, bigramTracer, trigramTracer (opcode n-gram counts), opcountTracer (the number of
 * opcodes run) and noopTracerLegacy. They run like any JavaScript tracer (timeout included).
 */
const NGRAM = (n: number): string => `{
  hist: {}, prev: [],
  step: function (log) {
    var op = log.op.toString();
    this.prev.push(op);
    if (this.prev.length > ${n}) this.prev.shift();
    if (this.prev.length === ${n}) { var k = this.prev.join("-"); this.hist[k] = (this.hist[k] || 0) + 1; }
  },
  fault: function () {},
  result: function () { return this.hist; }
}`;

export const BUILTIN_JS_TRACERS: Record<string, string> = {
  unigramTracer: NGRAM(1),
  bigramTracer: NGRAM(2),
  trigramTracer: NGRAM(3),
  opcountTracer: "{count: 0, step: function () { this.count++; }, fault: function () {}, result: function () { return this.count; }}",
  noopTracerLegacy: "{step: function () {}, fault: function () {}, result: function () { return {}; }}",
};
