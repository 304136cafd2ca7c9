// SPDX-License-Identifier: MIT
pragma solidity >=0.8.17;

import {Coin, PageRequest, PageResponse} from "./CosmosTypes.sol";

/// @dev Where the staking precompile lives on Cosmos EVM chains (cosmos/evm, Evmos).
address constant STAKING_PRECOMPILE_ADDRESS = 0x0000000000000000000000000000000000000800;

struct Description {
    string moniker;
    string identity;
    string website;
    string securityContact;
    string details;
}

/// Rates are decimals times 10^18 (0.1 = 1e17).
struct CommissionRates {
    uint256 rate;
    uint256 maxRate;
    uint256 maxChangeRate;
}

enum BondStatus {
    Unspecified,
    Unbonded,
    Unbonding,
    Bonded
}

/// A validator as the queries return it: `operatorAddress` is its hex address as a string (cosmos/evm's
/// choice), while the transactions take the `…valoper1…` bech32 form: convert with the bech32 precompile,
/// `IBech32(0x…0400).hexToBech32(operator, "cosmosvaloper")` (the chain's validator prefix).
/// `delegatorShares` and `commission` are decimals times 10^18.
struct Validator {
    string operatorAddress;
    string consensusPubkey;
    bool jailed;
    BondStatus status;
    uint256 tokens;
    uint256 delegatorShares;
    Description description;
    int64 unbondingHeight;
    int64 unbondingTime;
    uint256 commission;
    uint256 minSelfDelegation;
}

struct UnbondingDelegationEntry {
    int64 creationHeight;
    int64 completionTime;
    uint256 initialBalance;
    uint256 balance;
    uint64 unbondingId;
    int64 unbondingOnHoldRefCount;
}

struct UnbondingDelegationOutput {
    string delegatorAddress;
    string validatorAddress;
    UnbondingDelegationEntry[] entries;
}

struct RedelegationEntry {
    int64 creationHeight;
    int64 completionTime;
    uint256 initialBalance;
    uint256 sharesDst;
}

struct RedelegationOutput {
    string delegatorAddress;
    string validatorSrcAddress;
    string validatorDstAddress;
    RedelegationEntry[] entries;
}

struct RedelegationEntryResponse {
    RedelegationEntry redelegationEntry;
    uint256 balance;
}

struct RedelegationResponse {
    RedelegationOutput redelegation;
    RedelegationEntryResponse[] entries;
}

/// @title The staking precompile: delegate, undelegate, redelegate from the EVM.
/// @notice The selectors, events and mutability of cosmos/evm's `precompiles/staking/abi.json`.
/// Validators are `…valoper` bech32 strings in messages. The delegator of a message must be its
/// msg.sender (a contract stakes its own balance). A failure reverts with the module's reason.
/// @custom:address 0x0000000000000000000000000000000000000800
interface IStaking {
    /// Creates a validator operated by msg.sender (an account, not a contract) with `value` self-delegated.
    function createValidator(
        Description calldata description,
        CommissionRates calldata commissionRates,
        uint256 minSelfDelegation,
        address validatorAddress,
        string memory pubkey,
        uint256 value
    ) external returns (bool success);

    /// Edits a validator; -1 keeps the commission rate or the minimum self-delegation, "[do-not-modify]" a description field.
    function editValidator(Description calldata description, address validatorAddress, int256 commissionRate, int256 minSelfDelegation)
        external
        returns (bool success);

    /// Moves `amount` of the delegator's balance into the validator's stake.
    function delegate(address delegatorAddress, string memory validatorAddress, uint256 amount) external returns (bool success);

    /// Starts unbonding `amount`; it returns to the delegator's balance at `completionTime` (Unix seconds).
    function undelegate(address delegatorAddress, string memory validatorAddress, uint256 amount) external returns (int64 completionTime);

    /// Moves `amount` of stake from one validator to another at once; the move is final at `completionTime`.
    function redelegate(address delegatorAddress, string memory validatorSrcAddress, string memory validatorDstAddress, uint256 amount)
        external
        returns (int64 completionTime);

    /// Puts `amount` of the unbonding entry made at `creationHeight` back into the validator's stake.
    function cancelUnbondingDelegation(address delegatorAddress, string memory validatorAddress, uint256 amount, uint256 creationHeight)
        external
        returns (bool success);

    /// Shares (times 10^18) and what they are worth; zeros when there is no delegation.
    function delegation(address delegatorAddress, string memory validatorAddress) external view returns (uint256 shares, Coin memory balance);

    function unbondingDelegation(address delegatorAddress, string memory validatorAddress)
        external
        view
        returns (UnbondingDelegationOutput memory unbondingDelegation);

    /// The validator operated by `validatorAddress`; all fields empty when there is none.
    function validator(address validatorAddress) external view returns (Validator memory validator);

    /// Validators with `status` ("BOND_STATUS_BONDED", …; "" for all), a page at a time.
    function validators(string memory status, PageRequest calldata pageRequest)
        external
        view
        returns (Validator[] memory validators, PageResponse memory pageResponse);

    function redelegation(address delegatorAddress, string memory srcValidatorAddress, string memory dstValidatorAddress)
        external
        view
        returns (RedelegationOutput memory redelegation);

    function redelegations(address delegatorAddress, string memory srcValidatorAddress, string memory dstValidatorAddress, PageRequest calldata pageRequest)
        external
        view
        returns (RedelegationResponse[] memory response, PageResponse memory pageResponse);

    event CreateValidator(address indexed validatorAddress, uint256 value);
    event EditValidator(address indexed validatorAddress, int256 commissionRate, int256 minSelfDelegation);
    event Delegate(address indexed delegatorAddress, address indexed validatorAddress, uint256 amount, uint256 newShares);
    event Unbond(address indexed delegatorAddress, address indexed validatorAddress, uint256 amount, uint256 completionTime);
    event Redelegate(
        address indexed delegatorAddress,
        address indexed validatorSrcAddress,
        address indexed validatorDstAddress,
        uint256 amount,
        uint256 completionTime
    );
    event CancelUnbondingDelegation(address indexed delegatorAddress, address indexed validatorAddress, uint256 amount, uint256 creationHeight);
}
