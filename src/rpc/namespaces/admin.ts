/**
 * admin_*: geth's node-administration API with the meaning it has on a single dev node (all private:
 * they need the bearer token). The node has no p2p server, so it has no peers and dials none; its
 * identity (enode, ENR) names its JSON-RPC listen address under a node key kept in its store (with
 * `--home` it survives restarts). admin_startHTTP/stopHTTP/startWS/stopWS really open and close the
 * server's listeners through the `ListenerControl` the server hands over (absent in-process).
 */
import { isIPv4 } from "node:net";
import { RLP } from "@ethereumjs/rlp";
import { bigIntToUnpaddedBytes } from "@ethereumjs/util";
import { SigningKey } from "ethers/crypto";
import { NodeDb } from "../../storage/node-db";
import type { Node } from "../../chain";
import { keccak256 } from "../../utils/keccak";
import type { RpcDeps } from "../deps";
import { NotSupportedError, ServerError } from "../errors";
import { hex } from "../format";
import { method } from "../method";
import { ParamError, codec, jsonType, string } from "../params";
import type { HostPort, ListenerControl, ListenerSettings } from "../transport/server";

/** What admin_* needs from outside the chain; the node task fills it once its server listens. */
export interface AdminHooks {
  /** The node's home (admin_datadir); absent = everything in memory. */
  datadir?: string;
  /** The server's listeners; absent on the in-process provider. */
  listeners?: ListenerControl;
  /** The node's log (admin_addPeer says there why it dials nobody). */
  log?: (line: string) => void;
}

/** The node key (secp256k1) of this node's identity: made once, kept with the node's own data (src/storage/node-db.ts). */
async function nodeKey(node: Node): Promise<SigningKey> {
  return new SigningKey(await new NodeDb(node.nodeKv).nodeKey());
}

/** The IPv4 address to advertise for a listen host (unspecified and names become loopback). */
function advertisedIp(host: string | undefined): string {
  return host !== undefined && isIPv4(host) && host !== "0.0.0.0" ? host : "127.0.0.1";
}

/** EIP-778 record (scheme v4) of this node: id, ip, secp256k1, tcp; seq 1; "enr:" + base64url. */
function enr(key: SigningKey, ip: string, tcp: number): string {
  const pairs: Uint8Array[] = [];
  const add = (k: string, v: Uint8Array) => pairs.push(new TextEncoder().encode(k), v);
  add("id", new TextEncoder().encode("v4"));
  add("ip", new Uint8Array(ip.split(".").map(Number)));
  add("secp256k1", Buffer.from(key.compressedPublicKey.slice(2), "hex"));
  add("tcp", bigIntToUnpaddedBytes(BigInt(tcp)));
  const seq = bigIntToUnpaddedBytes(1n);
  const sig = key.sign(keccak256(RLP.encode([seq, ...pairs])));
  const rs = Buffer.concat([Buffer.from(sig.r.slice(2), "hex"), Buffer.from(sig.s.slice(2), "hex")]);
  return `enr:${Buffer.from(RLP.encode([rs, seq, ...pairs])).toString("base64url")}`;
}

/** geth's ChainConfig JSON for the rules this chain runs: every fork up to the configured one, active from genesis. */
function chainConfigJson(node: Node): Record<string, unknown> {
  const c = node.common;
  const out: Record<string, unknown> = { chainId: Number(node.config.chainId) };
  const blocks: Array<[string, string[]]> = [
    ["homestead", ["homesteadBlock"]],
    ["tangerineWhistle", ["eip150Block"]],
    ["spuriousDragon", ["eip155Block", "eip158Block"]],
    ["byzantium", ["byzantiumBlock"]],
    ["constantinople", ["constantinopleBlock"]],
    ["petersburg", ["petersburgBlock"]],
    ["istanbul", ["istanbulBlock"]],
    ["muirGlacier", ["muirGlacierBlock"]],
    ["berlin", ["berlinBlock"]],
    ["london", ["londonBlock"]],
    ["arrowGlacier", ["arrowGlacierBlock"]],
    ["grayGlacier", ["grayGlacierBlock"]],
    ["paris", ["mergeNetsplitBlock"]],
  ];
  for (const [fork, keys] of blocks) if (c.gteHardfork(fork)) for (const k of keys) out[k] = 0;
  if (c.gteHardfork("paris")) {
    out.terminalTotalDifficulty = 0;
    out.terminalTotalDifficultyPassed = true;
  }
  for (const fork of ["shanghai", "cancun", "prague", "osaka"]) if (c.gteHardfork(fork)) out[`${fork}Time`] = 0;
  return out;
}

/** An optional port: a JSON number (geth's int) or a hex quantity, 0–65535. */
const port = codec((v): number => {
  const n = typeof v === "string" && v.startsWith("0x") ? Number.parseInt(v.slice(2), 16) : v;
  if (typeof n !== "number" || !Number.isInteger(n) || n < 0 || n > 65535) throw new ParamError(`cannot unmarshal ${jsonType(v)} ${JSON.stringify(v)} into a port (0-65535)`);
  return n;
});

const list = (s: string | undefined): string[] | undefined =>
  s === undefined
    ? undefined
    : s
        .split(",")
        .map((x) => x.trim())
        .filter((x) => x !== "");

const ENODE = /^enode:\/\/([0-9a-fA-F]{128})@([^:/?]+|\[[0-9a-fA-F:.]+\]):(\d{1,5})(\?discport=\d{1,5})?$/;

export function adminMethods({ node, settings }: RpcDeps, hooks: AdminHooks, namespaces: () => string[]) {
  const control = (name: string): ListenerControl => {
    if (hooks.listeners === undefined) throw new NotSupportedError(`${name} is not available: the in-process provider has no listeners (they belong to npx hardhat node)`);
    return hooks.listeners;
  };
  const endpoint = (a: HostPort) => `${a.host.includes(":") ? `[${a.host}]` : a.host}:${a.port}`;
  const checkApis = (apis: string[] | undefined) => {
    const known = namespaces();
    for (const a of apis ?? []) if (!known.includes(a)) throw new ServerError(`invalid API "${a}" in whitelist (available: ${known.join(", ")})`);
  };
  const bind = async (start: () => Promise<HostPort>, s: ListenerSettings): Promise<HostPort> => {
    try {
      return await start();
    } catch (err) {
      const code = (err as { code?: string }).code;
      const what = `${s.host ?? ""}:${s.port ?? ""}`;
      if (code === "EADDRINUSE") throw new ServerError(`listen tcp ${what}: bind: address already in use`);
      if (code === "EADDRNOTAVAIL" || code === "ENOTFOUND") throw new ServerError(`listen tcp ${what}: bind: cannot assign requested address`);
      if (code === "EACCES") throw new ServerError(`listen tcp ${what}: bind: permission denied`);
      throw err;
    }
  };

  const startHttp = (name: string) =>
    method({
      name,
      params: [string.opt(), port.opt(), string.opt(), string.opt(), string.opt()],
      access: "private",
      doc: "Opens the HTTP listener (host, port, cors origins, apis, vhosts as in geth; defaults: the last address, every namespace). Virtual hosts are accepted for geth's signature and not checked. `HTTP RPC already running on host:port` when it listens.",
      async handler([host, p, cors, apis]) {
        const c = control(name);
        const running = c.http();
        if (running !== undefined) throw new ServerError(`HTTP RPC already running on ${endpoint(running)}`);
        const s: ListenerSettings = { host, port: p, origins: list(cors), apis: list(apis) };
        checkApis(s.apis);
        const bound = await bind(() => c.startHttp(s), s);
        hooks.log?.(`HTTP JSON-RPC server started at http://${endpoint(bound)}/`);
        return true;
      },
    });
  const stopHttp = (name: string) =>
    method({
      name,
      params: [],
      access: "private",
      doc: "Closes the HTTP listener (this call is still answered; open WebSockets stay until admin_stopWS). `HTTP RPC not running` when it is closed.",
      handler() {
        const c = control(name);
        if (c.http() === undefined) throw new ServerError("HTTP RPC not running");
        c.stopHttp();
        hooks.log?.("HTTP JSON-RPC server stopped");
        return true;
      },
    });

  return [
    method({
      name: "admin_nodeInfo",
      params: [],
      access: "private",
      doc: "geth's node info: id, name (the client version), enode and enr of the JSON-RPC listen address (no discovery), ip, ports, listenAddr, protocols.eth (network id, genesis, config, head).",
      async handler() {
        const key = await nodeKey(node);
        const http = hooks.listeners?.http();
        const ip = advertisedIp(http?.host);
        const tcp = http?.port ?? 0;
        const pub = key.publicKey.slice(4); // uncompressed, without the 0x04 prefix
        const genesis = await node.getBlock(0n);
        return {
          id: Buffer.from(keccak256(Buffer.from(pub, "hex"))).toString("hex"),
          name: settings.clientVersion,
          enode: `enode://${pub}@${ip}:${tcp}?discport=0`,
          enr: enr(key, ip, tcp),
          ip,
          ports: { discovery: 0, listener: tcp },
          listenAddr: http === undefined ? "" : endpoint(http),
          protocols: {
            eth: {
              network: Number(node.config.chainId),
              genesis: genesis === undefined ? null : hex(genesis.hash()),
              config: chainConfigJson(node),
              head: hex(node.head.hash()),
            },
          },
        };
      },
    }),
    method({
      name: "admin_datadir",
      params: [],
      access: "private",
      doc: "The node's home directory (--home); an error when the node keeps everything in memory.",
      handler() {
        if (hooks.datadir === undefined) throw new ServerError("this node has no data directory: it keeps everything in memory (start it with --home DIR)");
        return hooks.datadir;
      },
    }),
    method({
      name: "admin_peers",
      params: [],
      access: "private",
      doc: "Always []: a single dev node has no peers.",
      handler: () => [],
    }),
    method({
      name: "admin_addPeer",
      params: [string],
      access: "private",
      doc: "Checks the enode URL (`invalid enode: …`) and answers false: a dev node has no p2p server and dials no peers (the node's log says so).",
      handler([url]) {
        const m = ENODE.exec(url);
        if (m === null) throw new ServerError(`invalid enode: ${JSON.stringify(url)} is not enode://<128 hex digits>@host:port`);
        if (Number(m[3]) > 65535) throw new ServerError(`invalid enode: invalid port ${m[3]}`);
        hooks.log?.(`admin_addPeer: not dialing ${url}: this dev node runs alone and has no p2p server`);
        return false;
      },
    }),
    startHttp("admin_startHTTP"),
    startHttp("admin_startRPC"),
    stopHttp("admin_stopHTTP"),
    stopHttp("admin_stopRPC"),
    method({
      name: "admin_startWS",
      params: [string.opt(), port.opt(), string.opt(), string.opt()],
      access: "private",
      doc: "Accepts WebSocket connections again, on a WS-only listener at host:port (default: the last WS address; on the HTTP port when that is the address). `WebSocket RPC already running on host:port` when it runs.",
      async handler([host, p, origins, apis]) {
        const c = control("admin_startWS");
        const running = c.ws();
        if (running !== undefined) throw new ServerError(`WebSocket RPC already running on ${endpoint(running)}`);
        const s: ListenerSettings = { host, port: p, origins: list(origins), apis: list(apis) };
        checkApis(s.apis);
        const bound = await bind(() => c.startWs(s), s);
        hooks.log?.(`WebSocket JSON-RPC server started at ws://${endpoint(bound)}/`);
        return true;
      },
    }),
    method({
      name: "admin_stopWS",
      params: [],
      access: "private",
      doc: "Closes the WS-only listener, refuses WebSocket upgrades on the HTTP port and closes every open WebSocket. `WebSocket RPC not running` when none runs.",
      handler() {
        const c = control("admin_stopWS");
        if (c.ws() === undefined) throw new ServerError("WebSocket RPC not running");
        c.stopWs();
        hooks.log?.("WebSocket JSON-RPC server stopped");
        return true;
      },
    }),
  ];
}
