// SPDX-License-Identifier: MIT
pragma solidity >=0.8.17;

import {Dec, PageRequest, PageResponse} from "./CosmosTypes.sol";

/// @dev Where the slashing precompile lives on Cosmos EVM chains (cosmos/evm).
address constant SLASHING_PRECOMPILE_ADDRESS = 0x0000000000000000000000000000000000000806;

/// A validator's signing record; `validatorAddress` is its consensus address.
struct SigningInfo {
    address validatorAddress;
    int64 startHeight;
    int64 indexOffset;
    int64 jailedUntil;
    bool tombstoned;
    int64 missedBlocksCounter;
}

struct SlashingParams {
    int64 signedBlocksWindow;
    Dec minSignedPerWindow;
    int64 downtimeJailDuration;
    Dec slashFractionDoubleSign;
    Dec slashFractionDowntime;
}

/// @title The slashing precompile: signing infos, params, and unjail.
/// @notice The selectors, events and mutability of cosmos/evm's `precompiles/slashing/abi.json`. On
/// this chain a validator is jailed only when a test says so; its operator may unjail it once the
/// downtime jail duration has passed.
/// @custom:address 0x0000000000000000000000000000000000000806
interface ISlashing {
    event ValidatorUnjailed(address indexed validator);

    function getSigningInfo(address consAddress) external view returns (SigningInfo memory signingInfo);

    function getSigningInfos(PageRequest calldata pagination)
        external
        view
        returns (SigningInfo[] memory signingInfos, PageResponse memory pageResponse);

    /// Unjails the validator msg.sender operates (an account or a contract: the operator).
    function unjail(address validatorAddress) external returns (bool success);

    function getParams() external view returns (SlashingParams memory params);
}
