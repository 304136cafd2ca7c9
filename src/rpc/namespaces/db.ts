/**
 * db_*: geth's old local key-value store, (database, key) → value, kept in the node's store (LevelDB
 * with `--home`, so values survive a restart). Puts need the bearer token; gets are public. A missing
 * value answers -32000 `not found`, as geth's database did.
 */
import { NodeDb } from "../../storage/node-db";
import type { RpcDeps } from "../deps";
import { ServerError } from "../errors";
import { hex } from "../format";
import { method } from "../method";
import { ParamError, codec, data, jsonType } from "../params";

const enc = new TextEncoder();
const dec = new TextDecoder("utf-8", { fatal: true });

/** A database or key name: a non-empty string. */
const name = (what: string) =>
  codec((v): Uint8Array => {
    if (typeof v !== "string") throw new ParamError(`cannot unmarshal ${jsonType(v)} into a string`);
    if (v === "") throw new ParamError(`${what} cannot be blank`);
    const bytes = enc.encode(v);
    if (what === "database" && bytes.length > 0xffff) throw new ParamError("database name longer than 65535 bytes");
    return bytes;
  });

const text = codec((v): Uint8Array => {
  if (typeof v !== "string") throw new ParamError(`cannot unmarshal ${jsonType(v)} into a string`);
  return enc.encode(v);
});

export function dbMethods({ node }: RpcDeps) {
  // node-local: it outlives chain changes (hardhat_reset, state loads)
  const db = (): NodeDb => new NodeDb(node.nodeKv);
  const read = async (database: Uint8Array, key: Uint8Array): Promise<Uint8Array> => {
    const v = await db().get(database, key);
    if (v === undefined) throw new ServerError("not found");
    return v;
  };
  return [
    method({
      name: "db_putString",
      params: [name("database"), name("key"), text],
      access: "private",
      doc: "Stores a string under (database, key) in the node's store; answers true.",
      async handler([database, key, value]) {
        await db().put(database, key, value);
        return true;
      },
    }),
    method({
      name: "db_getString",
      // node-local data written with the token: not for any page (scripts on this machine read it)
      access: "dev",
      params: [name("database"), name("key")],
      doc: "The string stored under (database, key); -32000 `not found` when none (or when the value is not UTF-8 text: read it with db_getHex).",
      async handler([database, key]) {
        const v = await read(database, key);
        try {
          return dec.decode(v);
        } catch {
          throw new ServerError("the stored value is not UTF-8 text: read it with db_getHex");
        }
      },
    }),
    method({
      name: "db_putHex",
      params: [name("database"), name("key"), data],
      access: "private",
      doc: "Stores bytes (0x data) under (database, key) in the node's store; answers true.",
      async handler([database, key, value]) {
        await db().put(database, key, value);
        return true;
      },
    }),
    method({
      name: "db_getHex",
      // node-local data written with the token: not for any page (scripts on this machine read it)
      access: "dev",
      params: [name("database"), name("key")],
      doc: "The bytes stored under (database, key) as 0x data (strings stored by db_putString too); -32000 `not found` when none.",
      handler: async ([database, key]) => hex(await read(database, key)),
    }),
  ];
}
