// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

import {Coin} from "../precompiles/CosmosTypes.sol";
import {IDistribution, DISTRIBUTION_PRECOMPILE_ADDRESS} from "../precompiles/IDistribution.sol";
import {IStaking, STAKING_PRECOMPILE_ADDRESS} from "../precompiles/IStaking.sol";
import {IEpochHooks} from "../IEpochHooks.sol";
import {IEpochs} from "../IEpochs.sol";

/// A contract that stakes its own balance through the precompiles, and (registered as an epochs
/// hook) claims its rewards at every end of the epoch it watches.
contract Staker is IEpochHooks {
    IStaking private constant STAKING = IStaking(STAKING_PRECOMPILE_ADDRESS);
    IDistribution private constant DISTRIBUTION = IDistribution(DISTRIBUTION_PRECOMPILE_ADDRESS);
    IEpochs private constant EPOCHS = IEpochs(0x0000000000000000000000000000000000000900);

    string public watched;
    uint256 public claims;
    uint256 public claimed;

    event Claimed(string identifier, int64 epochNumber, uint256 amount);

    receive() external payable {}

    function stake(string calldata validator, uint256 amount) external returns (bool) {
        return STAKING.delegate(address(this), validator, amount);
    }

    function unstake(string calldata validator, uint256 amount) external returns (int64) {
        return STAKING.undelegate(address(this), validator, amount);
    }

    function move(string calldata from, string calldata to, uint256 amount) external returns (int64) {
        return STAKING.redelegate(address(this), from, to, amount);
    }

    function cancel(string calldata validator, uint256 amount, uint256 creationHeight) external returns (bool) {
        return STAKING.cancelUnbondingDelegation(address(this), validator, amount, creationHeight);
    }

    /// Stakes on behalf of someone else: the precompile refuses (the delegator must be msg.sender).
    function stakeFor(address delegator, string calldata validator, uint256 amount) external returns (bool) {
        return STAKING.delegate(delegator, validator, amount);
    }

    function claim() public returns (uint256 amount) {
        uint256 before = address(this).balance;
        DISTRIBUTION.claimRewards(address(this), 10);
        amount = address(this).balance - before;
        claimed += amount;
    }

    /// Stakes then fails: the stake must not stay behind.
    function stakeThenRevert(string calldata validator, uint256 amount) external {
        STAKING.delegate(address(this), validator, amount);
        revert("changed my mind");
    }

    /// The precompile's failure as a caught revert reason.
    function tryStake(string calldata validator, uint256 amount) external returns (bool ok, string memory reason) {
        try STAKING.delegate(address(this), validator, amount) returns (bool) {
            return (true, "");
        } catch Error(string memory why) {
            return (false, why);
        }
    }

    /// A delegation inside a STATICCALL: the precompile refuses to write (`write protection`).
    function stakeInStaticCall(string calldata validator, uint256 amount) external view returns (bool ok, bytes memory data) {
        (ok, data) = address(STAKING).staticcall(abi.encodeCall(IStaking.delegate, (address(this), validator, amount)));
    }

    function staked(string calldata validator) external view returns (uint256 shares, uint256 amount) {
        Coin memory balance;
        (shares, balance) = STAKING.delegation(address(this), validator);
        amount = balance.amount;
    }

    function watch(string calldata identifier) external {
        watched = identifier;
        EPOCHS.registerHooks();
    }

    function beforeEpochStart(string calldata, int64) external {}

    function afterEpochEnd(string calldata identifier, int64 epochNumber) external {
        require(msg.sender == address(EPOCHS), "only the epochs module");
        if (keccak256(bytes(identifier)) != keccak256(bytes(watched))) return;
        claims += 1;
        emit Claimed(identifier, epochNumber, claim());
    }
}
