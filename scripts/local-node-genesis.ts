/**
 * Writes `<home>/config/genesis.json` as cosmos/evm's `local_node.sh` leaves it after `evmd init`, its
 * `jq` edits, `add-genesis-account`, `gentx` and `collect-gentxs`: the chain id "9001", the denom
 * `atest`, the dev keys dev0–dev3 funded with 1000 TEST each, the validator key `mykey` funded with
 * 10^8 TEST and bonding 1000 TEST through a MsgCreateValidator in `genutil.gen_txs`, the ERC-7528
 * address as the native coin's token pair, and 30 s deposit and voting periods. The sections this node
 * does not read (auth, feemarket, consensus) are written as evmd writes them too, so the file is what a
 * team's own script would hand to the node. Used by scripts/cosmos-evm-suites.sh.
 *
 *   ts-node --transpile-only scripts/local-node-genesis.ts <home> [genesis time, RFC 3339]
 */
import { createPrivateKey, createPublicKey } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { HDNodeWallet } from "ethers/wallet";
import { getBytes, sha256, toUtf8Bytes } from "ethers";
import { toBech32 } from "../src/cosmos/common/address-codec";

const DENOM = "atest";
const VALIDATOR_MNEMONIC = "gesture inject test cycle original hollow east ridge hen combine junk child bacon zero hope comfort vacuum milk pitch cage oppose unhappy lunar seat";
/** dev0–dev3 of local_node.sh (their addresses are in its comments). */
const DEV_MNEMONICS = [
  "copper push brief egg scan entry inform record adjust fossil boss egg comic alien upon aspect dry avoid interest fury window hint race symptom",
  "maximum display century economy unlock van census kite error heart snow filter midnight usage egg venture cash kick motor survey drastic edge muffin visual",
  "will wear settle write dance topic tape sea glory hotel oppose rebel client problem era video gossip glide during yard balance cancel file rose",
  "doll midnight silk carpet brush boring pluck office gown inquiry duck chief aim exit gain never tennis crime fragile ship cloud surface exotic patch",
];
const ERC7528 = "0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE";

/** eth_secp256k1 keys derive at m/44'/60'/0'/0/0, as `evmd keys add --algo eth_secp256k1`. */
const addressOf = (mnemonic: string): Uint8Array => getBytes(HDNodeWallet.fromPhrase(mnemonic).address);

/** The ed25519 public key of a 32-byte seed (CometBFT's GenPrivKeyFromSecret takes sha256 of the secret as the seed). */
function ed25519PublicKey(seed: Uint8Array): Buffer {
  const pkcs8 = Buffer.concat([Buffer.from("302e020100300506032b657004220420", "hex"), seed]);
  return createPublicKey(createPrivateKey({ key: pkcs8, format: "der", type: "pkcs8" }))
    .export({ format: "der", type: "spki" })
    .subarray(-32);
}

const dec = (s: string): string => {
  const [i, f = ""] = s.split(".");
  return `${i}.${f.padEnd(18, "0")}`;
};

export function localNodeGenesis(genesisTime: string): Record<string, unknown> {
  const validator = addressOf(VALIDATOR_MNEMONIC);
  const balances = [
    ...DEV_MNEMONICS.map((m) => ({ address: toBech32("cosmos", addressOf(m)), coins: [{ denom: DENOM, amount: "1000000000000000000000" }] })),
    { address: toBech32("cosmos", validator), coins: [{ denom: DENOM, amount: "100000000000000000000000000" }] },
  ];
  const supply = balances.reduce((sum, b) => sum + BigInt(b.coins[0].amount), 0n);
  // the consensus key: priv_validator_key.json's, which `evmd init --recover` derives from the
  // validator's mnemonic (the SDK's InitializeNodeValidatorFilesFromMnemonic: ed25519 from sha256(mnemonic))
  const consensusKey = ed25519PublicKey(getBytes(sha256(toUtf8Bytes(VALIDATOR_MNEMONIC)))).toString("base64");
  const gentx = {
    body: {
      messages: [
        {
          "@type": "/cosmos.staking.v1beta1.MsgCreateValidator",
          description: { moniker: "localtestnet", identity: "", website: "", security_contact: "", details: "" },
          commission: { rate: dec("0.1"), max_rate: dec("0.2"), max_change_rate: dec("0.01") },
          min_self_delegation: "1",
          delegator_address: "",
          validator_address: toBech32("cosmosvaloper", validator),
          pubkey: { "@type": "/cosmos.crypto.ed25519.PubKey", key: consensusKey },
          value: { denom: DENOM, amount: "1000000000000000000000" },
        },
      ],
      memo: "",
      timeout_height: "0",
      extension_options: [],
      non_critical_extension_options: [],
    },
    auth_info: { signer_infos: [], fee: { amount: [], gas_limit: "200000", payer: "", granter: "" }, tip: null },
    signatures: [],
  };
  const coin = (amount: string) => [{ denom: DENOM, amount }];
  return {
    app_name: "evmd",
    app_version: "",
    genesis_time: genesisTime,
    chain_id: "9001",
    initial_height: 1,
    app_hash: null,
    app_state: {
      auth: { params: { max_memo_characters: "256", tx_sig_limit: "7", tx_size_cost_per_byte: "10", sig_verify_cost_ed25519: "590", sig_verify_cost_secp256k1: "1000" }, accounts: [] },
      bank: {
        params: { send_enabled: [], default_send_enabled: true },
        balances,
        supply: coin(supply.toString()),
        denom_metadata: [
          {
            description: "The native staking token for evmd.",
            denom_units: [
              { denom: DENOM, exponent: 0, aliases: ["attotest"] },
              { denom: "test", exponent: 18, aliases: [] },
            ],
            base: DENOM,
            display: "test",
            name: "Test Token",
            symbol: "TEST",
            uri: "",
            uri_hash: "",
          },
        ],
        send_enabled: [],
      },
      distribution: {
        params: { community_tax: dec("0.02"), base_proposer_reward: dec("0"), bonus_proposer_reward: dec("0"), withdraw_addr_enabled: true },
        fee_pool: { community_pool: [] },
      },
      erc20: {
        params: { enable_erc20: true, permissionless_registration: true },
        token_pairs: [{ contract_owner: 1, erc20_address: ERC7528, denom: DENOM, enabled: true }],
        allowances: [],
        native_precompiles: [ERC7528],
        dynamic_precompiles: [],
      },
      evm: {
        accounts: [],
        params: {
          evm_denom: DENOM,
          extra_eips: [],
          evm_channels: [],
          access_control: { create: { access_type: "ACCESS_TYPE_PERMISSIONLESS", access_control_list: [] }, call: { access_type: "ACCESS_TYPE_PERMISSIONLESS", access_control_list: [] } },
          active_static_precompiles: [
            "0x0000000000000000000000000000000000000100",
            "0x0000000000000000000000000000000000000400",
            "0x0000000000000000000000000000000000000800",
            "0x0000000000000000000000000000000000000801",
            "0x0000000000000000000000000000000000000802",
            "0x0000000000000000000000000000000000000803",
            "0x0000000000000000000000000000000000000804",
            "0x0000000000000000000000000000000000000805",
            "0x0000000000000000000000000000000000000806",
            "0x0000000000000000000000000000000000000807",
          ],
          history_serve_window: "8192",
        },
        preinstalls: [],
      },
      feemarket: {
        params: {
          no_base_fee: true,
          base_fee_change_denominator: 8,
          elasticity_multiplier: 2,
          enable_height: "0",
          base_fee: dec("1000000000"),
          min_gas_price: dec("0"),
          min_gas_multiplier: dec("0.5"),
        },
        block_gas: "0",
      },
      genutil: { gen_txs: [gentx] },
      gov: {
        starting_proposal_id: "1",
        deposits: [],
        votes: [],
        proposals: [],
        deposit_params: null,
        voting_params: null,
        tally_params: null,
        params: {
          min_deposit: coin("10000000"),
          max_deposit_period: "30s",
          voting_period: "30s",
          quorum: dec("0.334"),
          threshold: dec("0.5"),
          veto_threshold: dec("0.334"),
          min_initial_deposit_ratio: dec("0"),
          proposal_cancel_ratio: dec("0.5"),
          proposal_cancel_dest: "",
          expedited_voting_period: "15s",
          expedited_threshold: dec("0.667"),
          expedited_min_deposit: coin("50000000"),
          burn_vote_quorum: false,
          burn_proposal_deposit_prevote: false,
          burn_vote_veto: true,
          min_deposit_ratio: dec("0.01"),
        },
        constitution: "",
      },
      mint: {
        minter: { inflation: dec("0.13"), annual_provisions: dec("0") },
        params: { mint_denom: DENOM, inflation_rate_change: dec("0.13"), inflation_max: dec("0.2"), inflation_min: dec("0.07"), goal_bonded: dec("0.67"), blocks_per_year: "6311520" },
      },
      slashing: {
        params: { signed_blocks_window: "100", min_signed_per_window: dec("0.5"), downtime_jail_duration: "600s", slash_fraction_double_sign: dec("0.05"), slash_fraction_downtime: dec("0.01") },
        signing_infos: [],
        missed_blocks: [],
      },
      staking: {
        params: { unbonding_time: "1814400s", max_validators: 100, max_entries: 7, historical_entries: 10000, bond_denom: DENOM, min_commission_rate: dec("0") },
        last_total_power: "0",
        last_validator_powers: [],
        validators: [],
        delegations: [],
        unbonding_delegations: [],
        redelegations: [],
        exported: false,
      },
    },
    consensus: {
      params: {
        block: { max_bytes: "22020096", max_gas: "10000000" },
        evidence: { max_age_num_blocks: "100000", max_age_duration: "172800000000000", max_bytes: "1048576" },
        validator: { pub_key_types: ["ed25519"] },
        version: { app: "0" },
        abci: { vote_extensions_enable_height: "0" },
      },
    },
  };
}

if (require.main === module) {
  const home = process.argv[2];
  if (home === undefined) throw new Error("usage: local-node-genesis.ts <home> [genesis time]");
  const time = process.argv[3] ?? new Date(Math.floor(Date.now() / 1000) * 1000).toISOString().replace(".000Z", "Z");
  mkdirSync(path.join(home, "config"), { recursive: true });
  writeFileSync(path.join(home, "config", "genesis.json"), `${JSON.stringify(localNodeGenesis(time), null, 2)}\n`);
}
