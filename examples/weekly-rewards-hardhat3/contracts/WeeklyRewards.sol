// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

import {EPOCHS} from "hardhat-epochs/contracts/IEpochs.sol";
import {IEpochHooks} from "hardhat-epochs/contracts/IEpochHooks.sol";

/// @notice Stakers share a fixed reward each week. The chain closes the week itself: at the end of
///         every "week" epoch it calls afterEpochEnd, which credits the week's reward pro rata to
///         the stake (O(1): one accumulator, no loop over stakers). Rewards are paid from the ether
///         sent to the constructor.
contract WeeklyRewards is IEpochHooks {
    uint256 private constant SCALE = 1e18;

    uint256 public immutable rewardPerWeek;
    uint256 public totalStaked;
    uint256 public weeksPaid;
    /// Reward per staked wei since deployment, times SCALE.
    uint256 public rewardPerStake;

    mapping(address => uint256) public staked;
    mapping(address => uint256) private _settled;
    mapping(address => uint256) private _owed;

    event Staked(address indexed who, uint256 amount);
    event WeekClosed(int64 indexed week, uint256 reward, uint256 totalStaked);
    event Claimed(address indexed who, uint256 amount);

    error OnlyChain();
    error NothingToClaim();

    constructor(uint256 reward) payable {
        rewardPerWeek = reward;
        EPOCHS.registerHooks();
    }

    function stake() external payable {
        _settle(msg.sender);
        staked[msg.sender] += msg.value;
        totalStaked += msg.value;
        _settled[msg.sender] = (staked[msg.sender] * rewardPerStake) / SCALE;
        emit Staked(msg.sender, msg.value);
    }

    /// What `who` can claim now.
    function pending(address who) public view returns (uint256) {
        return _owed[who] + (staked[who] * rewardPerStake) / SCALE - _settled[who];
    }

    function claim() external {
        _settle(msg.sender);
        uint256 amount = _owed[msg.sender];
        if (amount == 0) revert NothingToClaim();
        _owed[msg.sender] = 0;
        emit Claimed(msg.sender, amount);
        payable(msg.sender).transfer(amount);
    }

    /// Called by the chain (from the epochs precompile's address) when an epoch ends.
    function afterEpochEnd(string calldata identifier, int64 epochNumber) external {
        if (msg.sender != address(EPOCHS)) revert OnlyChain();
        if (keccak256(bytes(identifier)) != keccak256("week") || totalStaked == 0) return;
        rewardPerStake += (rewardPerWeek * SCALE) / totalStaked;
        weeksPaid += 1;
        emit WeekClosed(epochNumber, rewardPerWeek, totalStaked);
    }

    function beforeEpochStart(string calldata, int64) external view {
        if (msg.sender != address(EPOCHS)) revert OnlyChain();
    }

    function _settle(address who) private {
        _owed[who] = pending(who);
        _settled[who] = (staked[who] * rewardPerStake) / SCALE;
    }
}
