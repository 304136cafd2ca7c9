// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

import {EPOCHS} from "../IEpochs.sol";
import {IEpochHooks} from "../IEpochHooks.sol";
import {Coin} from "../precompiles/CosmosTypes.sol";
import {IDistribution, DISTRIBUTION_PRECOMPILE_ADDRESS} from "../precompiles/IDistribution.sol";
import {IStaking, STAKING_PRECOMPILE_ADDRESS} from "../precompiles/IStaking.sol";

/// @notice Delegates what it holds to one validator through the staking precompile; at the end of
///         every day the chain calls `afterEpochEnd`, and the vault claims its staking rewards
///         through the distribution precompile and says how much it got.
contract EpochStakingVault is IEpochHooks {
    IStaking private constant STAKING = IStaking(STAKING_PRECOMPILE_ADDRESS);
    IDistribution private constant DISTRIBUTION = IDistribution(DISTRIBUTION_PRECOMPILE_ADDRESS);

    string public validator;
    uint256 public claimed;

    event RewardsClaimed(int64 indexed day, uint256 amount);

    error OnlyChain();

    constructor(string memory validator_) {
        validator = validator_;
        EPOCHS.registerHooks();
    }

    function stake() external payable {
        STAKING.delegate(address(this), validator, msg.value);
    }

    function staked() external view returns (uint256) {
        (, Coin memory balance) = STAKING.delegation(address(this), validator);
        return balance.amount;
    }

    function beforeEpochStart(string calldata, int64) external {}

    function afterEpochEnd(string calldata identifier, int64 epochNumber) external {
        if (msg.sender != address(EPOCHS)) revert OnlyChain();
        if (keccak256(bytes(identifier)) != keccak256("day")) return;
        uint256 before = address(this).balance;
        DISTRIBUTION.claimRewards(address(this), 1);
        uint256 amount = address(this).balance - before;
        claimed += amount;
        emit RewardsClaimed(epochNumber, amount);
    }
}
