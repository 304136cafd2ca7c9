// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

import {EPOCHS} from "hardhat-epochs/contracts/IEpochs.sol";
import {IEpochHooks} from "hardhat-epochs/contracts/IEpochHooks.sol";
import {Coin} from "hardhat-epochs/contracts/precompiles/CosmosTypes.sol";
import {IDistribution, DISTRIBUTION_PRECOMPILE_ADDRESS} from "hardhat-epochs/contracts/precompiles/IDistribution.sol";
import {IGov, GOV_PRECOMPILE_ADDRESS, VoteOption} from "hardhat-epochs/contracts/precompiles/IGov.sol";
import {IStaking, STAKING_PRECOMPILE_ADDRESS} from "hardhat-epochs/contracts/precompiles/IStaking.sol";

/// @notice A staking vault: deposits are delegated to one validator through the staking precompile
///         and the depositor gets shares. At every day's end the chain calls afterEpochEnd and the
///         vault claims its rewards and delegates them too, so a share is worth more each day. Its
///         owner votes on governance proposals with the vault's stake.
contract StakingVault is IEpochHooks {
    IStaking private constant STAKING = IStaking(STAKING_PRECOMPILE_ADDRESS);
    IDistribution private constant DISTRIBUTION = IDistribution(DISTRIBUTION_PRECOMPILE_ADDRESS);
    IGov private constant GOV = IGov(GOV_PRECOMPILE_ADDRESS);

    address public immutable owner;
    string public validator;
    uint256 public totalShares;
    mapping(address => uint256) public shares;
    uint256 public compounded;

    event Deposited(address indexed depositor, uint256 amount, uint256 shares);
    event Compounded(int64 day, uint256 rewards);

    error OnlyChain();
    error OnlyOwner();

    constructor(string memory validator_) {
        owner = msg.sender;
        validator = validator_;
        EPOCHS.registerHooks();
    }

    /// Coins the shares stand for: the delegation plus rewards claimed and not yet delegated.
    function totalAssets() public view returns (uint256) {
        (, Coin memory staked) = STAKING.delegation(address(this), validator);
        return staked.amount + address(this).balance;
    }

    function deposit() external payable returns (uint256 minted) {
        uint256 assets = totalAssets() - msg.value;
        minted = totalShares == 0 || assets == 0 ? msg.value : (msg.value * totalShares) / assets;
        shares[msg.sender] += minted;
        totalShares += minted;
        STAKING.delegate(address(this), validator, msg.value);
        emit Deposited(msg.sender, msg.value, minted);
    }

    /// The vault's vote on a proposal, weighted by its stake (x/gov counts its delegation).
    function vote(uint64 proposalId, VoteOption option) external {
        if (msg.sender != owner) revert OnlyOwner();
        GOV.vote(address(this), proposalId, option, "");
    }

    function beforeEpochStart(string calldata, int64) external {}

    function afterEpochEnd(string calldata identifier, int64 epochNumber) external {
        if (msg.sender != address(EPOCHS)) revert OnlyChain();
        if (keccak256(bytes(identifier)) != keccak256("day") || totalShares == 0) return;
        uint256 before = address(this).balance;
        DISTRIBUTION.claimRewards(address(this), 1);
        uint256 rewards = address(this).balance - before;
        if (rewards > 0) STAKING.delegate(address(this), validator, rewards);
        compounded += rewards;
        emit Compounded(epochNumber, rewards);
    }
}
