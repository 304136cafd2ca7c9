// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

import {EPOCHS} from "../IEpochs.sol";
import {IEpochHooks} from "../IEpochHooks.sol";

/// @notice Pays a fixed reward per epoch to stakers, pro rata to their stake, at the end of each epoch
///         of one timer: "week" by default, changeable by governance (as Evmos's inflation module keeps
///         its epoch identifier in a param). The hook does O(1) work whatever the number of stakers, so
///         it stays far below the hook gas limit: it only raises the reward per staked wei.
contract WeeklyRewards is IEpochHooks {
    uint256 private constant SCALE = 1e18;

    address public governance;
    string public epochIdentifier = "week";
    uint256 public rewardPerEpoch;
    /// Wei set aside by fund() to pay claims.
    uint256 public rewardBudget;

    uint256 public totalStake;
    mapping(address => uint256) public stakeOf;
    /// Reward per staked wei, scaled by 1e18, summed over every paid epoch.
    uint256 public accRewardPerStake;
    mapping(address => uint256) private _settled;
    mapping(address => uint256) private _debt;

    /// The last epoch paid (the ending epoch; under the "evmos" tick rule the number Evmos passes).
    int64 public lastPaidEpoch;
    /// The epoch that started last.
    int64 public startedEpoch;
    uint256 public epochsPaid;

    event EpochPaid(string identifier, int64 epochNumber, uint256 amount);
    event EpochSkipped(string identifier, int64 epochNumber);
    event EpochIdentifierChanged(string identifier);
    event RewardPerEpochChanged(uint256 reward);
    event Staked(address indexed who, uint256 amount);
    event Unstaked(address indexed who, uint256 amount);
    event Claimed(address indexed who, uint256 amount);

    error OnlyChain();
    error OnlyGovernance();
    error InsufficientStake();
    error InsufficientBudget(uint256 owed, uint256 budget);

    modifier onlyChain() {
        if (msg.sender != address(EPOCHS)) revert OnlyChain();
        _;
    }

    modifier onlyGovernance() {
        if (msg.sender != governance) revert OnlyGovernance();
        _;
    }

    constructor(uint256 reward) {
        governance = msg.sender;
        rewardPerEpoch = reward;
        EPOCHS.registerHooks();
    }

    // ------------------------------------------------------------------ governance

    function setEpochIdentifier(string calldata identifier) external onlyGovernance {
        epochIdentifier = identifier;
        // numbers of another timer are not comparable with the old ones
        lastPaidEpoch = 0;
        startedEpoch = 0;
        emit EpochIdentifierChanged(identifier);
    }

    function setRewardPerEpoch(uint256 reward) external onlyGovernance {
        rewardPerEpoch = reward;
        emit RewardPerEpochChanged(reward);
    }

    function fund() external payable {
        rewardBudget += msg.value;
    }

    // ------------------------------------------------------------------ stakers

    function stake() external payable {
        _settle(msg.sender);
        stakeOf[msg.sender] += msg.value;
        totalStake += msg.value;
        _debt[msg.sender] = (stakeOf[msg.sender] * accRewardPerStake) / SCALE;
        emit Staked(msg.sender, msg.value);
    }

    function unstake(uint256 amount) external {
        if (amount > stakeOf[msg.sender]) revert InsufficientStake();
        _settle(msg.sender);
        stakeOf[msg.sender] -= amount;
        totalStake -= amount;
        _debt[msg.sender] = (stakeOf[msg.sender] * accRewardPerStake) / SCALE;
        emit Unstaked(msg.sender, amount);
        payable(msg.sender).transfer(amount);
    }

    /// Rewards earned and not yet claimed.
    function rewardOf(address who) public view returns (uint256) {
        return _settled[who] + (stakeOf[who] * accRewardPerStake) / SCALE - _debt[who];
    }

    function claim() external {
        uint256 owed = rewardOf(msg.sender);
        if (owed > rewardBudget) revert InsufficientBudget(owed, rewardBudget);
        _settled[msg.sender] = 0;
        _debt[msg.sender] = (stakeOf[msg.sender] * accRewardPerStake) / SCALE;
        rewardBudget -= owed;
        emit Claimed(msg.sender, owed);
        payable(msg.sender).transfer(owed);
    }

    // ------------------------------------------------------------------ epoch hooks

    function beforeEpochStart(string calldata identifier, int64 epochNumber) external onlyChain {
        if (!_ours(identifier)) return;
        startedEpoch = epochNumber;
    }

    function afterEpochEnd(string calldata identifier, int64 epochNumber) external onlyChain {
        if (!_ours(identifier)) return;
        // pay each epoch once, even if a number were delivered twice
        if (epochsPaid > 0 && epochNumber <= lastPaidEpoch) return;
        lastPaidEpoch = epochNumber;
        epochsPaid += 1;
        if (totalStake == 0) {
            emit EpochSkipped(identifier, epochNumber);
            return;
        }
        accRewardPerStake += (rewardPerEpoch * SCALE) / totalStake;
        emit EpochPaid(identifier, epochNumber, rewardPerEpoch);
    }

    function _ours(string calldata identifier) private view returns (bool) {
        return keccak256(bytes(identifier)) == keccak256(bytes(epochIdentifier));
    }

    function _settle(address who) private {
        _settled[who] = rewardOf(who);
        _debt[who] = (stakeOf[who] * accRewardPerStake) / SCALE;
    }
}
