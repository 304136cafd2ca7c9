/** web3_*: client version and Keccak-256. */
import { keccak256 } from "../../utils/keccak";
import type { RpcDeps } from "../deps";
import { hex } from "../format";
import { method } from "../method";
import { data } from "../params";

export function web3Methods({ settings }: RpcDeps) {
  return [
    method({
      name: "web3_clientVersion",
      access: "read",
      params: [],
      doc: "HardhatNetwork/<hardhat version>/hardhat-epochs/<version>: the network helpers accept only a version starting with HardhatNetwork.",
      handler: () => settings.clientVersion,
    }),
    method({
      name: "web3_sha3",
      access: "read",
      params: [data],
      doc: "Keccak-256 (not SHA3-256) of the hex-decoded input (Evmos wrongly hashes the hex text).",
      handler: ([input]) => hex(keccak256(input)),
    }),
  ];
}
