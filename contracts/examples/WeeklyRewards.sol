// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

import {EPOCHS} from "../IEpochs.sol";
import {IEpochHooks} from "../IEpochHooks.sol";

/// @notice Distributes a fixed reward budget to stakers at the end of each epoch of one timer
///         ("week" by default, changeable by governance, as Evmos's inflation module does with its param).
contract WeeklyRewards is IEpochHooks {
    address public governance;
    string public epochIdentifier = "week";
    uint256 public rewardPerEpoch;
    uint256 public totalStake;
    mapping(address => uint256) public stakeOf;
    mapping(address => uint256) public rewardOf;
    address[] public stakers;
    int64 public lastPaidEpoch;
    int64 public startedEpoch;

    event EpochPaid(string identifier, int64 epochNumber, uint256 amount);
    event EpochIdentifierChanged(string identifier);

    error OnlyChain();
    error OnlyGovernance();

    constructor(uint256 reward) {
        governance = msg.sender;
        rewardPerEpoch = reward;
        EPOCHS.registerHooks();
    }

    modifier onlyChain() {
        if (msg.sender != address(EPOCHS)) revert OnlyChain();
        _;
    }

    function setEpochIdentifier(string calldata identifier) external {
        if (msg.sender != governance) revert OnlyGovernance();
        epochIdentifier = identifier;
        emit EpochIdentifierChanged(identifier);
    }

    function stake() external payable {
        if (stakeOf[msg.sender] == 0) stakers.push(msg.sender);
        stakeOf[msg.sender] += msg.value;
        totalStake += msg.value;
    }

    function beforeEpochStart(string calldata identifier, int64 epochNumber) external onlyChain {
        if (keccak256(bytes(identifier)) != keccak256(bytes(epochIdentifier))) return;
        startedEpoch = epochNumber;
    }

    function afterEpochEnd(string calldata identifier, int64 epochNumber) external onlyChain {
        if (keccak256(bytes(identifier)) != keccak256(bytes(epochIdentifier))) return;
        lastPaidEpoch = epochNumber;
        if (totalStake == 0) return;
        for (uint256 i = 0; i < stakers.length; i++) {
            address s = stakers[i];
            rewardOf[s] += (rewardPerEpoch * stakeOf[s]) / totalStake;
        }
        emit EpochPaid(identifier, epochNumber, rewardPerEpoch);
    }
}
