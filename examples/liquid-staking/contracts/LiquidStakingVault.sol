// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

import {EPOCHS} from "hardhat-epochs/contracts/IEpochs.sol";
import {IEpochHooks} from "hardhat-epochs/contracts/IEpochHooks.sol";
import {Coin} from "hardhat-epochs/contracts/precompiles/CosmosTypes.sol";
import {IDistribution, DISTRIBUTION_PRECOMPILE_ADDRESS} from "hardhat-epochs/contracts/precompiles/IDistribution.sol";
import {IStaking, STAKING_PRECOMPILE_ADDRESS} from "hardhat-epochs/contracts/precompiles/IStaking.sol";

/// @notice A liquid-staking vault: deposits are delegated to one validator through the staking
///         precompile and the depositor gets vault shares. At the end of every day the chain calls
///         afterEpochEnd, and the vault claims its staking rewards and delegates them too, so a share
///         is worth more each day. Leaving is the chain's unbonding: shares are burned, their coins
///         undelegated, and paid out once the unbonding completes.
contract LiquidStakingVault is IEpochHooks {
    IStaking private constant STAKING = IStaking(STAKING_PRECOMPILE_ADDRESS);
    IDistribution private constant DISTRIBUTION = IDistribution(DISTRIBUTION_PRECOMPILE_ADDRESS);

    struct Withdrawal {
        address owner;
        uint256 amount;
        int64 completionTime;
    }

    string public validator;
    uint256 public totalShares;
    mapping(address => uint256) public shares;
    /// Coins undelegated for withdrawals not yet paid (they come back to this balance at completion).
    uint256 public owed;
    Withdrawal[] public withdrawals;
    uint256 public harvests;

    event Deposited(address indexed owner, uint256 amount, uint256 shares);
    event Harvested(int64 day, uint256 rewards);
    event WithdrawRequested(uint256 indexed id, address indexed owner, uint256 amount, int64 completionTime);
    event Withdrawn(uint256 indexed id, address indexed owner, uint256 amount);

    error OnlyChain();
    error NotYet(int64 completionTime);
    error NotYours();

    constructor(string memory validator_) {
        validator = validator_;
        EPOCHS.registerHooks();
    }

    /// Coins the vault's shares stand for: its delegation plus rewards claimed and not yet delegated.
    function totalAssets() public view returns (uint256) {
        (, Coin memory staked) = STAKING.delegation(address(this), validator);
        return staked.amount + address(this).balance - owed;
    }

    function deposit() external payable returns (uint256 minted) {
        uint256 assets = totalAssets() - msg.value;
        minted = totalShares == 0 || assets == 0 ? msg.value : (msg.value * totalShares) / assets;
        shares[msg.sender] += minted;
        totalShares += minted;
        STAKING.delegate(address(this), validator, msg.value);
        emit Deposited(msg.sender, msg.value, minted);
    }

    /// Claims the rewards and delegates them with the rest (anyone may call; the chain does daily).
    function harvest() public returns (uint256 rewards) {
        uint256 before = address(this).balance;
        DISTRIBUTION.claimRewards(address(this), 1);
        rewards = address(this).balance - before;
        if (rewards > 0) STAKING.delegate(address(this), validator, rewards);
    }

    function requestWithdraw(uint256 amountOfShares) external returns (uint256 id) {
        uint256 amount = (amountOfShares * totalAssets()) / totalShares;
        shares[msg.sender] -= amountOfShares;
        totalShares -= amountOfShares;
        int64 completionTime = STAKING.undelegate(address(this), validator, amount);
        owed += amount;
        id = withdrawals.length;
        withdrawals.push(Withdrawal(msg.sender, amount, completionTime));
        emit WithdrawRequested(id, msg.sender, amount, completionTime);
    }

    function withdraw(uint256 id) external {
        Withdrawal memory w = withdrawals[id];
        if (w.owner != msg.sender) revert NotYours();
        if (int64(uint64(block.timestamp)) < w.completionTime) revert NotYet(w.completionTime);
        delete withdrawals[id];
        owed -= w.amount;
        (bool ok, ) = msg.sender.call{value: w.amount}("");
        require(ok, "transfer failed");
        emit Withdrawn(id, msg.sender, w.amount);
    }

    function beforeEpochStart(string calldata, int64) external {}

    function afterEpochEnd(string calldata identifier, int64 epochNumber) external {
        if (msg.sender != address(EPOCHS)) revert OnlyChain();
        if (keccak256(bytes(identifier)) != keccak256("day") || totalShares == 0) return;
        harvests += 1;
        emit Harvested(epochNumber, harvest());
    }
}
