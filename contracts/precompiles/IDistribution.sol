// SPDX-License-Identifier: MIT
pragma solidity >=0.8.17;

import {Coin, DecCoin, Dec, PageRequest, PageResponse} from "./CosmosTypes.sol";

/// @dev Where the distribution precompile lives on Cosmos EVM chains (cosmos/evm, Evmos).
address constant DISTRIBUTION_PRECOMPILE_ADDRESS = 0x0000000000000000000000000000000000000801;

struct ValidatorSlashEvent {
    uint64 validatorPeriod;
    Dec fraction;
}

struct ValidatorDistributionInfo {
    string operatorAddress;
    DecCoin[] selfBondRewards;
    DecCoin[] commission;
}

struct DelegationDelegatorReward {
    string validatorAddress;
    DecCoin[] reward;
}

/// @title The distribution precompile: staking rewards from the EVM.
/// @notice The selectors, events and mutability of cosmos/evm's `precompiles/distribution/abi.json`.
/// Rewards are DecCoins (amount times 10^18). The delegator of a message must be its msg.sender.
/// @custom:address 0x0000000000000000000000000000000000000801
interface IDistribution {
    /// Withdraws the rewards of the delegator's first `maxRetrieve` delegations to its withdraw address.
    function claimRewards(address delegatorAddress, uint32 maxRetrieve) external returns (bool success);

    /// Where the delegator's rewards go from now on (a bech32 or a hex address).
    function setWithdrawAddress(address delegatorAddress, string memory withdrawerAddress) external returns (bool success);

    function withdrawDelegatorRewards(address delegatorAddress, string memory validatorAddress) external returns (Coin[] memory amount);

    /// Withdraws the commission of the validator msg.sender operates.
    function withdrawValidatorCommission(string memory validatorAddress) external returns (Coin[] memory amount);

    function fundCommunityPool(address depositor, Coin[] memory amount) external returns (bool success);

    function depositValidatorRewardsPool(address depositor, string memory validatorAddress, Coin[] memory amount) external returns (bool success);

    function validatorDistributionInfo(string memory validatorAddress) external view returns (ValidatorDistributionInfo memory distributionInfo);

    function validatorOutstandingRewards(string memory validatorAddress) external view returns (DecCoin[] memory rewards);

    function validatorCommission(string memory validatorAddress) external view returns (DecCoin[] memory commission);

    function validatorSlashes(string memory validatorAddress, uint64 startingHeight, uint64 endingHeight, PageRequest calldata pageRequest)
        external
        view
        returns (ValidatorSlashEvent[] memory slashes, PageResponse memory pageResponse);

    function delegationRewards(address delegatorAddress, string memory validatorAddress) external view returns (DecCoin[] memory rewards);

    function delegationTotalRewards(address delegatorAddress)
        external
        view
        returns (DelegationDelegatorReward[] memory rewards, DecCoin[] memory total);

    function delegatorValidators(address delegatorAddress) external view returns (string[] memory validators);

    function delegatorWithdrawAddress(address delegatorAddress) external view returns (string memory withdrawAddress);

    function communityPool() external view returns (DecCoin[] memory coins);

    event ClaimRewards(address indexed delegatorAddress, uint256 amount);
    event SetWithdrawerAddress(address indexed caller, string withdrawerAddress);
    event WithdrawDelegatorReward(address indexed delegatorAddress, address indexed validatorAddress, uint256 amount);
    event WithdrawValidatorCommission(string indexed validatorAddress, uint256 commission);
    event FundCommunityPool(address indexed depositor, string denom, uint256 amount);
    event DepositValidatorRewardsPool(address indexed depositor, address indexed validatorAddress, string denom, uint256 amount);
}
