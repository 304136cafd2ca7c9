/** The transports' batch check and a body reader that stops at the limit (the defaults: src/rpc/limits.ts). */
import type { IncomingMessage } from "node:http";
import type { JsonRpcResponse } from "../types";
import { batchRefusal } from "../limits";
import { invalidRequestBody } from "./wire";

/** The transport's own answer to a batch it will not pass on, or undefined when the body may go on. */
export function checkBatch(body: unknown, limit: number): JsonRpcResponse | undefined {
  const refused = Array.isArray(body) ? batchRefusal(body.length, limit) : undefined;
  return refused === undefined ? undefined : invalidRequestBody(refused);
}

type BodyResult = { ok: true; text: string } | { ok: false; reason: "too-large" | "aborted" };

/** Reads the body up to `limit` bytes; beyond it, the rest is drained and discarded. */
export function readBody(req: IncomingMessage, limit: number): Promise<BodyResult> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (r: BodyResult): void => {
      if (done) return;
      done = true;
      if (!r.ok) chunks.length = 0;
      resolve(r);
    };
    const declared = Number(req.headers["content-length"] ?? "0");
    if (Number.isFinite(declared) && declared > limit) {
      req.resume();
      finish({ ok: false, reason: "too-large" });
      return;
    }
    req.on("data", (c: Buffer) => {
      if (done) return;
      size += c.length;
      if (size > limit) finish({ ok: false, reason: "too-large" });
      else chunks.push(c);
    });
    req.on("end", () => finish({ ok: true, text: Buffer.concat(chunks).toString("utf8") }));
    // a client gone mid-body: 'close' before 'end' (req.complete stays false)
    req.on("close", () => {
      if (!req.complete) finish({ ok: false, reason: "aborted" });
    });
    req.on("error", () => finish({ ok: false, reason: "aborted" }));
  });
}
