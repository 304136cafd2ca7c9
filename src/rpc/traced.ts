/** Tracer failures as the request's error: geth answers a tracer's error (its text) with -32000. */
import { TraceError } from "../chain";
import { ServerError } from "./errors";

export async function traced<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof TraceError) throw new ServerError(err.message);
    throw err;
  }
}
